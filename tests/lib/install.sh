# SPDX-License-Identifier: GPL-2.0
# install.sh - the install section of tests/run (sourced): modinfo of each
# kernel's module, make install and DKMS against this host's stock kernels'
# headers (tests/install, in temporary trees), the README's quick start on a
# fresh Debian 12 chroot, then the packages (build/deb,
# which t88-packages installs in the 6.1 guest, and build/rpm).

# install_prepare - the modules to check ($kos, built here if the build
# section did not run) and the stock kernels of this host ($stock)
install_prepare() {
	local k ko
	kos="" stock=""
	for k in $kernels; do
		ko=$top/build/modules/$k/module/teeprobe.ko
		[ -f "$ko" ] || in_section build ||
			step "install: modules for $k" "$results/build-$k.log" "$top/scripts/build-modules" "$k"
		[ -f "$ko" ] && kos="$kos $ko"
		# make install and DKMS are for this host's own architecture
		# (and the other Debian releases' kernels are not installed here)
		case $k in lab|*-arm64|optee|itrustee*|5.10|newest) ;; *) stock="${stock:+$stock }$k" ;; esac
	done
	rm -f "$results"/install-{modinfo,make,dkms,quickstart}.{tap,rc}
}

# install_checks - run them: some 150 s of builds and no timing; beside the
# guests, at nice 19 (bg_start), a step's timeout bounds a hang, not a build
install_checks() {
	in_section guest && export STEP_TIMEOUT=1800
	[ -z "$kos" ] || bg_out install-modinfo bash "$top/tests/install/modinfo.sh" $kos
	[ -z "$stock" ] || {
		bg_out install-make bash "$top/tests/install/make-install.sh" ${stock%% *}
		bg_out install-dkms bash "$top/tests/install/dkms.sh" $stock
		# the README's quick start on a fresh Debian 12 chroot
		bg_out install-quickstart bash "$top/tests/install/quickstart.sh" ${stock%% *}
	}
}

# install_collect - count them (waiting for them first), then build the
# packages (some 40 s of CPU, two builds of the tools and lintian): with
# guests running, only once one guest is left (a make check whose 5.10
# guest ran beside them lost its first hsbench run to a step timeout)
install_collect() {
	[ -z "$kos" ] || bg_collect install install-modinfo install tap
	[ -z "$stock" ] || {
		bg_collect install install-make install tap
		bg_collect install install-dkms install tap
		bg_collect install install-quickstart install tap
		tap_script install "$results/install-packages.tap" \
			bash "$top/tests/install/packages.sh"
	}
}
