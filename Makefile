# SPDX-License-Identifier: GPL-2.0
# teeprobe - top-level targets.
#
#   make            the module for KDIR (default: the running kernel), the
#                   tools and the man pages
#   make check      install what is missing, build, run every test
#   make demo       the lab case in a QEMU guest, with its diagnosis
#                   (KERNEL=optee: on a real secure world, OP-TEE on arm64;
#                   KERNEL=itrustee or itrustee-5.10: iTrustee's tzdriver)
#   make bench      benchmarks (ratios measured side by side)
#   make stress     reliability runs at full size (lab kernel, fuzzing)
#   make htmldocs   Documentation/ as HTML in build/doc (warnings are errors)
#   make abi-docs   Documentation/abi-tables.rst again from module/abi.h
#                   (generated, committed; make check fails while it is stale)
#   make install    teeprobe.ko for KVER, the tools, man pages and docs
#                   (PREFIX, DESTDIR; Documentation/install.rst)
#   make uninstall  remove what make install installed
#   make dkms-source      the DKMS source tree under DESTDIR/usr/src
#   make deb        Debian packages teeprobe and teeprobe-dkms in build/deb
#   make rpm        RPM packages (rpm/teeprobe.spec) in build/rpm/RPMS
#   make install-dkms     that, registered with DKMS and built for every
#                         kernel with headers; make uninstall-dkms
#   make clean
KVER	?= $(shell uname -r)
KDIR	?= /lib/modules/$(KVER)/build
VERSION	:= $(shell sed -n 's/^\#define TEEPROBE_VERSION "\(.*\)"/\1/p' module/teeprobe.h)

# Where make install puts things: PREFIX for the tools, man pages and docs,
# DESTDIR in front of every path (a staging tree for a package). The module
# goes to DESTDIR/lib/modules/KVER/INSTALL_MOD_DIR, as the kernel's
# modules_install puts it.
PREFIX		?= /usr/local
BINDIR		?= $(PREFIX)/bin
COMPLETIONDIR	?= $(PREFIX)/share/bash-completion/completions
MANDIR		?= $(PREFIX)/share/man
DOCDIR		?= $(PREFIX)/share/doc/teeprobe
INSTALL_MOD_DIR	?= extra
# libtraceevent loads plugins from its own directory, whatever PREFIX is.
TEP_PLUGIN_DIR	?= $(or $(shell pkg-config --variable=plugin_dir libtraceevent 2>/dev/null),/usr/lib/$(shell $(CC) -print-multiarch 2>/dev/null)/traceevent/plugins)
# DKMS finds sources only in its source tree, whatever PREFIX is.
DKMS_SRCTREE	?= /usr/src
DKMS		?= dkms
# install-dkms builds for these kernels (default: every one with headers).
DKMS_KERNELS	?= $(notdir $(patsubst %/build,%,$(wildcard /lib/modules/*/build)))
INSTALL		?= install
RST2MAN		?= rst2man

# One man page per Documentation/teeprobe*.rst (teeprobe.1, teeprobe-record.1...)
MAN_RST		:= $(wildcard Documentation/teeprobe*.rst)
MAN_PAGES	:= $(patsubst Documentation/%.rst,build/man/%.1,$(MAN_RST))
DKMS_FILES	:= module/dkms.conf module/Kbuild \
		   $(filter-out %.mod.c,$(wildcard module/*.c)) $(wildcard module/*.h)
DEST		:= $(if $(DESTDIR),$(abspath $(DESTDIR)))

.PHONY: all modules module tools man htmldocs abi-docs lab check demo bench stress clean deps deps-demo \
	kdir-check install install-module install-tools install-man install-doc \
	uninstall dkms-source install-dkms uninstall-dkms deb rpm

all: modules tools man

kdir-check:
	@test -d "$(KDIR)" || { echo "no kernel build tree at $(KDIR) for kernel $(KVER): install linux-headers-$(KVER), or build for another kernel with KVER=<its release> (its headers installed) or KDIR=<its build tree>" >&2; exit 1; }

# Every module of the project (teeprobe.ko, the lab's, the tests')
modules: kdir-check
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

# teeprobe.ko alone, what install and DKMS build
module: kdir-check
	$(MAKE) -C $(KDIR) M=$(CURDIR)/module modules

tools:
	$(MAKE) -C tools

man: $(MAN_PAGES)

# rst2man takes NAME from the title and subtitle, the section from the
# ":Manual section:" field; the version goes into the page's footer here.
build/man/%.1: Documentation/%.rst Documentation/abi-tables.rst module/teeprobe.h
	@command -v $(RST2MAN) >/dev/null || { echo "no $(RST2MAN): install python3-docutils (scripts/deps)" >&2; exit 1; }
	@mkdir -p $(@D)
	$(RST2MAN) --halt=warning $< $@.tmp
	@grep -q '^\.TH "[^"]*" 1 ' $@.tmp || { rm -f $@.tmp; echo "$<: not a man page: one top-level section (the subtitle) and ':Manual section: 1' after it" >&2; exit 1; }
	sed '1,/^\.TH /s/^\(\.TH "[^"]*" 1 "[^"]*"\) ""/\1 "teeprobe $(VERSION)"/' $@.tmp >$@
	@rm -f $@.tmp

# Every page of Documentation/, with Sphinx as the kernel builds its own;
# a warning (a broken heading, a page left out of index.rst) is an error.
htmldocs:
	@command -v sphinx-build >/dev/null || { echo "no sphinx-build: install python3-sphinx (scripts/deps)" >&2; exit 1; }
	sphinx-build -W --keep-going -q -b html Documentation build/doc

# The contract of module/abi.h (its files, columns, metrics and event
# fields) as the pages include it: tools/abidoc/abi_doc prints it, the
# result is committed, and tests/tools/abi-docs.sh fails while it differs
abi-docs:
	$(MAKE) -C tools abidoc
	tools/abidoc/abi_doc >Documentation/abi-tables.rst.tmp || { rm -f Documentation/abi-tables.rst.tmp; exit 1; }
	mv Documentation/abi-tables.rst.tmp Documentation/abi-tables.rst

install: install-module install-tools install-man install-doc

install-module: module
	$(MAKE) -C $(KDIR) M=$(CURDIR)/module INSTALL_MOD_PATH=$(DEST) \
		INSTALL_MOD_DIR=$(INSTALL_MOD_DIR) modules_install
	$(if $(DEST),,depmod -a $(KVER))

install-tools: tools
	$(INSTALL) -d $(DESTDIR)$(BINDIR)
	$(INSTALL) -m 0755 tools/teeprobe $(DESTDIR)$(BINDIR)/teeprobe
	$(INSTALL) -d $(DESTDIR)$(COMPLETIONDIR)
	$(INSTALL) -m 0644 tools/completion/teeprobe $(DESTDIR)$(COMPLETIONDIR)/teeprobe
	$(INSTALL) -d $(DESTDIR)$(TEP_PLUGIN_DIR)
	$(INSTALL) -m 0644 tools/plugin_teeprobe.so $(DESTDIR)$(TEP_PLUGIN_DIR)/plugin_teeprobe.so

install-man: man
	$(INSTALL) -d $(DESTDIR)$(MANDIR)/man1
	$(INSTALL) -m 0644 $(MAN_PAGES) $(DESTDIR)$(MANDIR)/man1/

install-doc:
	$(INSTALL) -d $(DESTDIR)$(DOCDIR)/Documentation
	$(INSTALL) -m 0644 README COPYING $(DESTDIR)$(DOCDIR)/
	$(INSTALL) -m 0644 $(wildcard Documentation/*.rst) $(DESTDIR)$(DOCDIR)/Documentation/
	$(INSTALL) -d $(DESTDIR)$(DOCDIR)/examples
	$(INSTALL) -m 0644 contrib/prometheus/teeprobe-rules.yml \
		contrib/prometheus/teeprobe-rules.test.yml \
		contrib/grafana/teeprobe.json $(DESTDIR)$(DOCDIR)/examples/

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/teeprobe $(DESTDIR)$(COMPLETIONDIR)/teeprobe
	rm -f $(DESTDIR)$(TEP_PLUGIN_DIR)/plugin_teeprobe.so
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MAN_PAGES)))
	rm -rf $(DESTDIR)$(DOCDIR)
	rm -f $(DEST)/lib/modules/$(KVER)/$(INSTALL_MOD_DIR)/teeprobe.ko*
	$(if $(DEST),,depmod -a $(KVER))

# The DKMS source tree: module/ with its dkms.conf, nothing else
dkms-source:
	$(INSTALL) -d $(DESTDIR)$(DKMS_SRCTREE)/teeprobe-$(VERSION)
	$(INSTALL) -m 0644 $(DKMS_FILES) $(DESTDIR)$(DKMS_SRCTREE)/teeprobe-$(VERSION)/

# Register with the host's DKMS and build and install for DKMS_KERNELS; a
# kernel without kretprobes, tracepoints or debugfs is skipped (status 77).
install-dkms:
	@test -z "$(DESTDIR)" || { echo "install-dkms installs on this host; for a package, make dkms-source DESTDIR=..." >&2; exit 1; }
	$(MAKE) dkms-source
	$(DKMS) status teeprobe/$(VERSION) | grep -q . || $(DKMS) add teeprobe/$(VERSION)
	@set -e; for k in $(DKMS_KERNELS); do \
		echo "$(DKMS) install teeprobe/$(VERSION) -k $$k"; \
		$(DKMS) install teeprobe/$(VERSION) -k $$k || test $$? = 77; \
	done

uninstall-dkms:
	@test -z "$(DESTDIR)" || { echo "uninstall-dkms removes from this host; no DESTDIR" >&2; exit 1; }
	if $(DKMS) status teeprobe/$(VERSION) | grep -q .; then $(DKMS) remove teeprobe/$(VERSION) --all; fi
	rm -rf $(DKMS_SRCTREE)/teeprobe-$(VERSION)

# The packages are built from a copy of the sources: dpkg-buildpackage
# cleans its tree and writes its results to the tree's parent, build/deb;
# rpmbuild takes a tarball. In a git checkout the copy is git's files, with
# changes not yet committed and new files git does not ignore (no build
# products: the lab's programs are not in .gitignore); elsewhere the tree
# less what .gitignore leaves out.
PKG_COPY	= if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then \
			git ls-files --cached --others --exclude-standard | \
			while read -r f; do [ ! -e "$$f" ] || echo "$$f"; done | \
			rsync -a --files-from=- ./ $(1)/; \
		  else rsync -a --exclude=/.git --exclude-from=.gitignore ./ $(1)/; fi

# teeprobe_VERSION-1_ARCH.deb and teeprobe-dkms_VERSION-1_all.deb (debian/)
deb:
	@command -v dpkg-buildpackage >/dev/null && test -x /usr/bin/dh_dkms || { echo "no dpkg-buildpackage or dh_dkms: install dpkg-dev, debhelper and dh-dkms (scripts/deps)" >&2; exit 1; }
	rm -rf build/deb
	@mkdir -p build/deb/teeprobe-$(VERSION)
	$(call PKG_COPY,build/deb/teeprobe-$(VERSION))
	cd build/deb/teeprobe-$(VERSION) && dpkg-buildpackage -us -uc -b
	rm -rf build/deb/teeprobe-$(VERSION)
	@ls build/deb/*.deb

# teeprobe and teeprobe-dkms RPMs for openEuler and Fedora (rpm/teeprobe.spec).
# Here rpmbuild cannot check BuildRequires against Debian's packages:
# --nodeps. No debuginfo package: Debian has no find-debuginfo.
rpm:
	@command -v rpmbuild >/dev/null || { echo "no rpmbuild: install rpm (scripts/deps)" >&2; exit 1; }
	rm -rf build/rpm
	@mkdir -p build/rpm/SOURCES build/rpm/teeprobe-$(VERSION)
	$(call PKG_COPY,build/rpm/teeprobe-$(VERSION))
	tar -czf build/rpm/SOURCES/teeprobe-$(VERSION).tar.gz -C build/rpm teeprobe-$(VERSION)
	rm -rf build/rpm/teeprobe-$(VERSION)
	rpmbuild -bb --nodeps --define '_topdir $(CURDIR)/build/rpm' \
		--define 'debug_package %{nil}' rpm/teeprobe.spec
	@ls build/rpm/RPMS/*/*.rpm

lab:
	@if [ -f lab/Makefile ]; then $(MAKE) -C lab; fi

deps-demo:
	scripts/deps --demo $(if $(KERNEL),-k $(KERNEL))

deps:
	scripts/deps

check:
	scripts/deps --kernels
	tests/run

demo: deps-demo
	scripts/demo $(if $(KERNEL),-k $(KERNEL))

# bench/profile -B: the NET_RX cost per run and per packet of (b) and (d),
# counted by attribution; bench/size: the module's memory at 2, 16 and 64
# vCPUs, per CPU and fixed; bench/close: closing the windows per CPU at
# 2, 16 and 64 vCPUs; bench/read: big sessions read by teeprobe and
# trace-cmd on this host (Documentation/benchmarks.rst)
bench: deps
	bench/run
	bench/profile -I packets -B 32 -C "a b d" -r 7 -t 12
	bench/size
	bench/close
	bench/read

stress:
	scripts/deps --kernels
	scripts/stress

clean:
	@if [ -d "$(KDIR)" ]; then $(MAKE) -C $(KDIR) M=$(CURDIR) clean; fi
	rm -f module/Module.symvers
	$(MAKE) -C tools clean
	$(MAKE) -C tests/unit clean
	@if [ -f lab/Makefile ]; then $(MAKE) -C lab clean; fi
	$(MAKE) -C bench/insns clean
	$(MAKE) -C bench/bigtrace clean
	rm -rf build
