# SPDX-License-Identifier: GPL-2.0
# kernels.sh - the kernels teeprobe is built and tested against (sourced).
#
# A kernel is named by an id:
#   6.1   Debian 12's stock 6.1 kernel (newest installed 6.1.*-amd64)
#   6.12  Debian 12's stock 6.12 kernel (newest installed 6.12.*+deb12-amd64)
#   lab   the lab kernel built by scripts/lab-kernel (TEE, KUnit, KASAN, ...)
# kernel_resolve ID sets KVER, VMLINUZ, KDIR and KFLAVOR (stock or lab).

KERNEL_IDS="6.1 6.12 lab"

# newest_installed - newest /lib/modules entry matching a regex, with headers
newest_installed() {
	local v
	for v in $(ls /lib/modules 2>/dev/null | grep -E "$1" | sort -V -r); do
		if [ -f "/boot/vmlinuz-$v" ] && [ -d "/lib/modules/$v/build" ]; then
			echo "$v"
			return 0
		fi
	done
	return 1
}

# kernel_resolve - set KVER, VMLINUZ, KDIR, KFLAVOR for kernel id $1
kernel_resolve() {
	local top
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	case "$1" in
	6.1|6.12)
		local re='^6\.1\.[0-9]+-[0-9]+-amd64$'
		[ "$1" = 6.12 ] && re='^6\.12\.[0-9]+\+deb12-amd64$'
		KVER=$(newest_installed "$re") ||
			die "no Debian $1 kernel with headers installed: run scripts/deps"
		VMLINUZ=/boot/vmlinuz-$KVER
		KDIR=/lib/modules/$KVER/build
		KFLAVOR=stock
		;;
	lab)
		KDIR=$("$top/scripts/lab-kernel") || die "no lab kernel"
		VMLINUZ=$KDIR/arch/x86/boot/bzImage
		KVER=$(cat "$KDIR/include/config/kernel.release")
		KFLAVOR=lab
		;;
	*)
		die "unknown kernel id '$1' (known: $KERNEL_IDS)"
		;;
	esac
	export KVER VMLINUZ KDIR KFLAVOR
}
