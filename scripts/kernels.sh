# SPDX-License-Identifier: GPL-2.0
# kernels.sh - the kernels teeprobe is built and tested against (sourced).
#
# A kernel is named by an id:
#   5.10  Debian 11's newest stock 5.10 kernel (scripts/kernel-world: a
#         chroot of Debian 11 with the kernel, its headers and its gcc-10)
#   6.1   Debian 12's stock 6.1 kernel (the newest 6.1.*-amd64 whose headers
#         are installed; its image unpacked by scripts/stock-kernel)
#   6.12  Debian 12's stock 6.12 kernel (the same, 6.12.*+deb12-amd64)
#   newest  Debian unstable's newest stock amd64 kernel, as scripts/deps
#         last found it (scripts/kernel-world: a chroot of unstable)
#   lab   the lab kernel built by scripts/lab-kernel (TEE, KUnit, KASAN, ...)
#   6.1-arm64  Debian 12's newest stock 6.1 arm64 kernel, with its guest's
#         root file system made of Debian's arm64 packages (scripts/arm64-root)
#   optee the same arm64 kernel and root booted through Trusted Firmware-A
#         and OP-TEE, a real secure world (scripts/optee-world): its own
#         tee.ko and optee.ko drive it, tee-supplicant runs
#   itrustee  the same arm64 kernel with iTrustee's real tzdriver (the
#         newest tree) over tzsim, the lab's simulated iTrustee secure
#         side (scripts/tzdriver), teecd and libteec (scripts/itrustee-world)
#   itrustee-5.10  the case's generation: Debian 11's stock arm64 5.10
#         kernel (scripts/arm64-kernel) with tzdriver v1.0.0 over tzsim,
#         teecd and libteec v1.0.0; the guest's root is 6.1-arm64's, with
#         the 5.10 kernel's modules mounted into it (KMODROOT)
# An arm64 id sets KSECURE too: none, optee or itrustee; itrustee sets
# KTZ, the tzdriver version (newest or 1.0.0).
# kernel_resolve ID sets KVER, VMLINUZ, KDIR, KFLAVOR (stock or lab), KARCH
# (x86_64 or arm64) and, for a foreign architecture, KROOT (the guest's root
# file system, the builds' sysroot). A kernel of another Debian release
# sets KCHROOT (the chroot its modules are built in: KDIR is inside it),
# KMODROOT (where its lib/modules/KVER is; the guest mounts it: Debian 12's
# own unpacked images too) and, when it has no CONFIG_TEE, KTEESRC (its TEE
# core's sources).

KERNEL_IDS="5.10 6.1 6.12 newest lab 6.1-arm64 optee itrustee itrustee-5.10"

# newest_headers - the newest kernel release matching a regex whose headers
# are installed (/lib/modules/KVER/build)
newest_headers() {
	local v
	for v in $(ls /lib/modules 2>/dev/null | grep -E "$1" | sort -V -r); do
		if [ -d "/lib/modules/$v/build" ]; then
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
	KARCH= KROOT= KSECURE=none KTZ= KCHROOT= KMODROOT= KTEESRC=
	case "$1" in
	5.10|newest)
		local world
		world=$("$top/scripts/kernel-world" "$1") ||
			die "no $1 kernel (scripts/kernel-world $1; scripts/deps makes it)"
		KVER=$(cat "$world/kver")
		KCHROOT=$world/root
		KMODROOT=$KCHROOT
		KDIR=$KCHROOT$(cat "$world/kdir")
		VMLINUZ=$KCHROOT/boot/vmlinuz-$KVER
		[ -d "$world/tee" ] && KTEESRC=$world/tee
		KFLAVOR=stock
		;;
	6.1|6.12)
		local re='^6\.1\.[0-9]+-[0-9]+-amd64$' img
		[ "$1" = 6.12 ] && re='^6\.12\.[0-9]+\+deb12-amd64$'
		KVER=$(newest_headers "$re") ||
			die "no Debian $1 kernel headers installed: run scripts/deps"
		KDIR=/lib/modules/$KVER/build
		# its image unpacked into the cache (scripts/stock-kernel), or
		# installed on this host by hand
		img=${TEEPROBE_CACHE:-/var/cache/teeprobe}/kernels/stock-$KVER
		if [ -f "$img/.made" ]; then
			VMLINUZ=$img/root/boot/vmlinuz-$KVER
			KMODROOT=$img/root
		elif [ -f "/boot/vmlinuz-$KVER" ]; then
			VMLINUZ=/boot/vmlinuz-$KVER
		else
			die "no image of kernel $KVER: run scripts/deps (scripts/stock-kernel $KVER)"
		fi
		KFLAVOR=stock
		;;
	6.1-arm64|optee|itrustee)
		local world
		world=$("$top/scripts/arm64-root") || die "no arm64 guest world"
		KVER=$(cat "$world/kver")
		KROOT=$world/root
		VMLINUZ=$KROOT/boot/vmlinuz-$KVER
		KDIR=$(cd "$world/kdir" && pwd -P)
		KFLAVOR=stock
		KARCH=arm64
		[ "$1" = optee ] && KSECURE=optee
		[ "$1" = itrustee ] && KSECURE=itrustee KTZ=newest
		;;
	itrustee-5.10)
		local world kworld
		world=$("$top/scripts/arm64-root") || die "no arm64 guest world"
		kworld=$("$top/scripts/arm64-kernel" 5.10) || die "no Debian 11 arm64 kernel"
		KVER=$(cat "$kworld/kver")
		KROOT=$world/root
		KMODROOT=$kworld/root
		VMLINUZ=$KMODROOT/boot/vmlinuz-$KVER
		KDIR=$(cd "$kworld/kdir" && pwd -P)
		KFLAVOR=stock
		KARCH=arm64
		KSECURE=itrustee KTZ=1.0.0
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
	KARCH=${KARCH:-x86_64}
	export KVER VMLINUZ KDIR KFLAVOR KARCH KROOT KSECURE KTZ KCHROOT KMODROOT KTEESRC
}
