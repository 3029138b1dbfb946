# SPDX-License-Identifier: GPL-2.0
# frec - a printk-style flight recorder for the Linux kernel.
#
#   make                 kmod/frec.ko against Debian's linux-headers-amd64,
#                        and the userspace tools
#   make check           every test: lint, userspace harness (native, TSan,
#                        ASan/UBSan), the decoder's checks, guest tests on
#                        Debian's 6.1, 6.12 and 6.12-rt kernels, guest tests
#                        + KUnit on the debug kernel, the Debian packages
#                        and DKMS (doc/testing.md)
#   make list-tests      every test, under the name make check gives it
#   make demo            boot a guest and show the whole product
#   make lint            checkpatch --strict, sparse (C=2), W=1
#   make bench           benchmarks; they print figures, never pass or fail
#   make install         frec-decode and its man page (PREFIX, DESTDIR)
#   make debug-modules   frec's modules for the debug kernel (build/debug/ko)
#   make clean
#
# KDIR selects the kernel tree to build against; the default is Debian's
# linux-headers-amd64, not `uname -r` (this machine's kernel is unrelated
# to the one the guest boots), or FREC_KVER's stock kernel (6.1, 6.12,
# 6.12-rt or a release; scripts/lib.sh), whose headers stock-kernel.sh
# fetches into the cache when they are not installed.

KDIR ?= $(shell bash -c '. scripts/lib.sh && stock_kdir')
# An arm64 tree (FREC_KVER=arm64-6.1, arm64-6.12) builds with the cross
# compiler: ARCH and CROSS_COMPILE (lib.sh, kdir_make_args).
KDIR_ARGS = $(shell bash -c '. scripts/lib.sh && kdir_make_args "$$1"' _ '$(KDIR)')
BUILD := $(CURDIR)/build
NULL_BLK_OUT := $(or $(FREC_BUILD),$(BUILD))/null_blk

all: modules tools

# The sample client is built as a driver outside frec would be: on its
# own, with frec's Module.symvers (README.md, "Quick start").
# Kbuild does not see frec's symbol versions change: the sample (one
# small file) is cleaned and built again every time.
# frec_null_blk, the kernel's null_blk with frec's lines, is built from
# linux-source's copy in build/null_blk (FREC_BUILD's), which guest-run.sh
# sends to the guest with the rest.
modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) $(KDIR_ARGS) modules
	$(MAKE) -C $(KDIR) M=$(CURDIR)/kmod/samples $(KDIR_ARGS) clean
	$(MAKE) -C $(KDIR) M=$(CURDIR)/kmod/samples $(KDIR_ARGS) \
		KBUILD_EXTRA_SYMBOLS=$(CURDIR)/Module.symvers modules
	scripts/build-null-blk.sh $(KDIR) $(NULL_BLK_OUT) $(CURDIR) $(CURDIR)/Module.symvers $(KDIR_ARGS)

# The debug kernel gets its own copy of the sources: kbuild writes objects
# next to them, and one tree cannot hold objects for two kernels.
debug-modules:
	@kdir=$$(scripts/debug-kernel.sh | tail -n 1) && \
	mkdir -p $(BUILD)/debug/src $(BUILD)/debug/ko && \
	rsync -a --delete --exclude='*.o' --exclude='*.ko' --exclude='.*.cmd' \
		--exclude='*.mod*' --exclude='modules.order' --exclude='Module.symvers' \
		Kbuild VERSION kmod include uapi kunit $(BUILD)/debug/src/ && \
	find $(BUILD)/debug/src -name '*.ko' -delete && \
	$(MAKE) -C $$kdir M=$(BUILD)/debug/src modules && \
	$(MAKE) -C $$kdir M=$(BUILD)/debug/src/kmod/samples clean && \
	$(MAKE) -C $$kdir M=$(BUILD)/debug/src/kmod/samples \
		KBUILD_EXTRA_SYMBOLS=$(BUILD)/debug/src/Module.symvers modules && \
	rm -f $(BUILD)/debug/ko/*.ko && \
	find $(BUILD)/debug/src -name '*.ko' -exec cp {} $(BUILD)/debug/ko/ \;

tools:
	$(MAKE) -C tools

check:
	scripts/check.sh

# Every test, under the name make check prints for it, and its file.
list-tests:
	@scripts/list-tests.sh

lint:
	scripts/lint.sh

bench:
	scripts/bench.sh

install:
	$(MAKE) -C tools install

demo: modules tools
	scripts/demo.sh

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) $(KDIR_ARGS) clean
	-$(MAKE) -C $(KDIR) M=$(CURDIR)/kmod/samples $(KDIR_ARGS) clean
	$(MAKE) -C tools clean
	rm -rf $(BUILD)

.PHONY: all modules debug-modules tools check list-tests lint bench install demo clean
