# SPDX-License-Identifier: GPL-2.0
# teeprobe - top-level targets.
#
#   make            the module for KDIR (default: the running kernel) and the tools
#   make check      install what is missing, build, run every test
#   make demo       the lab case in a QEMU guest, with its diagnosis
#   make bench      benchmarks (ratios measured side by side)
#   make stress-badinput  t80-badinput with 100000 random inputs per file
#   make clean
KVER	?= $(shell uname -r)
KDIR	?= /lib/modules/$(KVER)/build

.PHONY: all modules tools lab check demo bench clean deps stress-badinput

all: modules tools

modules:
	@test -d "$(KDIR)" || { echo "no kernel build tree at $(KDIR): install linux-headers-$(KVER) or set KDIR=" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

tools:
	$(MAKE) -C tools

lab:
	@if [ -f lab/Makefile ]; then $(MAKE) -C lab; fi

deps:
	scripts/deps

check: deps
	tests/run

demo: deps
	scripts/demo

bench: deps
	bench/run

STRESS_KERNEL ?= 6.1
STRESS_N ?= 100000
stress-badinput: deps
	scripts/build-modules $(STRESS_KERNEL)
	tests/vm/vm-run -k $(STRESS_KERNEL) -t 7200 -o build/vm/stress-badinput -- \
		env TP_BADINPUT_N=$(STRESS_N) TEST_TIMEOUT=7000 \
		tests/integration/suite tests/integration/t80-badinput.sh

clean:
	@if [ -d "$(KDIR)" ]; then $(MAKE) -C $(KDIR) M=$(CURDIR) clean; fi
	$(MAKE) -C tools clean
	$(MAKE) -C tests/unit clean
	@if [ -f lab/Makefile ]; then $(MAKE) -C lab clean; fi
	rm -rf build
