# SPDX-License-Identifier: GPL-2.0
# cache.sh - where teeprobe keeps what it builds once per machine (sourced).
#
# Kernel trees and initramfs images are keyed by their inputs and kept outside
# the work tree, so a fresh clone (and CI) reuses them.

TEEPROBE_CACHE=${TEEPROBE_CACHE:-/var/cache/teeprobe}

# msg - progress to stderr, so stdout stays for values
msg() { echo "teeprobe: $*" >&2; }
# die - fatal error
die() { echo "teeprobe: error: $*" >&2; exit 1; }

# cache_key - short hash of the given files' contents and extra strings
cache_key() {
	local f
	{
		for f in "$@"; do
			if [ -f "$f" ]; then cat "$f"; else echo "$f"; fi
		done
	} | sha256sum | cut -c1-12
}

# kernel_source_61 - extract Debian's linux-source-6.1 once; print its path
kernel_source_61() {
	local tarball=/usr/src/linux-source-6.1.tar.xz ver dir
	[ -f "$tarball" ] || die "$tarball missing: run scripts/deps"
	ver=$(dpkg-query -W -f '${Version}' linux-source-6.1)
	dir=$TEEPROBE_CACHE/src/linux-source-6.1-$ver
	if [ ! -f "$dir/.extracted" ]; then
		# one extraction at a time: the lab kernel's build starts in the
		# background (scripts/deps) while others may ask for the tree
		mkdir -p "$TEEPROBE_CACHE/src"
		(
			flock 8
			[ -f "$dir/.extracted" ] && exit 0
			msg "extracting linux-source-6.1 $ver"
			rm -rf "$dir"
			mkdir -p "$dir"
			tar -xf "$tarball" -C "$dir" --strip-components=1 || die "extracting $tarball"
			touch "$dir/.extracted"
		) 8>"$TEEPROBE_CACHE/src/.linux-source-6.1.lock" || exit 1
	fi
	echo "$dir"
}
