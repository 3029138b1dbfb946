# SPDX-License-Identifier: GPL-2.0
# frec-decode: included by tools/Makefile, which defines O, CC, ROOT, WARN.
#
#   make decode         build frec-decode and frec-gen into $(O)/decode
#   make decode-check   unit tests (native, ASan+UBSan), generated dumps
#                       against their expected text, JSON and CSV checks,
#                       span latency histograms (-F hist),
#                       filters, black box region images whole and damaged,
#                       synthetic kdumps (--vmcore) whole and refused,
#                       trace.dat against trace-cmd report (skipped without it),
#                       a 32-bit build refused (skipped without
#                       gcc-multilib), the crafted bad inputs in
#                       testdata/, and
#                       libFuzzer smoke runs: fuzz_decode for
#                       FUZZ_SMOKE_SECONDS, fuzz_region (region images
#                       built from choices, checksums valid) and
#                       fuzz_vmcore (kdumps, directories' checksums
#                       valid) for FUZZ_REGION_SMOKE_SECONDS each, all
#                       three at nice 19 beside the checks above
#   make fuzz           libFuzzer for FUZZ_RUNS executions (at least 1M)
#                       of fuzz_decode, FUZZ_REGION_RUNS of fuzz_region
#                       and of fuzz_vmcore
#   make bench-decode   records/s for a generated dump of BENCH_RECORDS
#   make install        frec-decode and its man page into DESTDIR/PREFIX

DEC_DIR := $(CURDIR)/frec-decode
DEC_O := $(O)/decode
DEC_LIB := errors.c tasks.c raw.c addr_table.c formats.c sites.c kallsyms.c decode.c write_text.c \
	write_json.c write_csv.c write_tracedat.c write_hist.c region.c kdump.c vmcore.c
# kdump.c reads zlib-compressed kdump pages.
DEC_LDLIBS := -lz
DEC_KSRCS := $(ROOT)/kmod/lib/frec_format.c $(ROOT)/kmod/lib/frec_format_line.c \
	$(ROOT)/kmod/lib/frec_format_quote.c $(ROOT)/kmod/lib/frec_filter.c \
	$(ROOT)/kmod/lib/frec_merge.c $(ROOT)/kmod/lib/frec_region.c \
	$(ROOT)/kmod/lib/frec_region_build.c $(ROOT)/kmod/lib/frec_region_csum.c \
	$(ROOT)/kmod/lib/frec_region_text.c $(ROOT)/kmod/lib/frec_region_dump.c \
	$(ROOT)/kmod/lib/frec_hist.c $(ROOT)/kmod/lib/frec_vmcore_dir.c \
	$(ROOT)/kmod/lib/frec_inflight.c
DEC_SRCS := $(addprefix $(DEC_DIR)/,$(DEC_LIB)) $(DEC_KSRCS)
DEC_DEPS := $(DEC_SRCS) $(wildcard $(DEC_DIR)/*.h) $(DEC_DIR)/decode.mk \
	$(ROOT)/kmod/lib/frec_format.h \
	$(ROOT)/kmod/lib/frec_format_quote.h $(ROOT)/kmod/lib/frec_filter.h \
	$(ROOT)/kmod/lib/frec_merge.h $(ROOT)/kmod/lib/frec_region_image.h \
	$(ROOT)/kmod/lib/frec_region_text.h $(ROOT)/kmod/lib/frec_hist.h \
	$(ROOT)/kmod/lib/frec_span.h $(ROOT)/kmod/lib/frec_inflight.h \
	$(ROOT)/kmod/lib/frec_user.h $(ROOT)/uapi/frec_raw.h $(ROOT)/uapi/frec_region.h \
	$(ROOT)/uapi/frec_vmcore.h $(ROOT)/kmod/lib/frec_vmcore_dir.h
DEC_CFLAGS := -std=gnu11 -g -D_GNU_SOURCE $(WARN) -I$(DEC_DIR) \
	-I$(ROOT)/kmod/lib -I$(ROOT)/uapi -I$(CURDIR)/harness
DEC_ASAN := -O1 -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer

FUZZ_CC ?= clang
# kmod/lib's static_assert(expr) is the kernel's one-argument form; clang
# calls it a C2x extension in -std=gnu11, gcc says nothing.
FUZZ_NO_C2X := -Wno-c2x-extensions
FUZZ_SMOKE_SECONDS ?= 20
FUZZ_REGION_SMOKE_SECONDS ?= 15
# fuzz_region: a run is one image of at most 96 KiB, read in milliseconds
# with memory of a few times its size; more of either is a finding.
FUZZ_REGION_FLAGS := -max_len=4096 -len_control=0 -malloc_limit_mb=64
# fuzz_vmcore: a compressed kdump's bitmaps describe up to 32768 frames a
# block (a bit each), so the harness's one block each, of an input of at
# most 4 KiB, describes 128 MiB, which the directory may claim as rings of
# frames left out (zeros): an image of up to 128 MiB is what such a vmcore
# needs.  Larger is a finding.  The harness's ELF claims memory to its
# PT_LOAD's end, a few pages; vmcore.c bounds any ELF at a page a bit of
# its file, as the bitmaps.
FUZZ_VMCORE_FLAGS := -max_len=4096 -len_control=0 -malloc_limit_mb=192
# A run longer than this (seconds) is a finding.  The smoke runs are niced
# and, in make check, run beside QEMU guests that can hold both CPUs for
# seconds: 60 there, 10 in make fuzz.
FUZZ_TIMEOUT ?= 10
FUZZ_SMOKE_TIMEOUT ?= 60
FUZZ_RUNS ?= 1100000
# About 600 a second here, under ASan+UBSan: half an hour.
FUZZ_REGION_RUNS ?= $(FUZZ_RUNS)
BENCH_RECORDS ?= 3000000
PREFIX ?= /usr/local
DESTDIR ?=

decode: $(DEC_O)/frec-decode $(DEC_O)/frec-gen

$(DEC_O)/frec-decode: $(DEC_DIR)/main.c $(DEC_DEPS) | $(DEC_O)
	$(CC) $(DEC_CFLAGS) -O3 -o $@ $(DEC_DIR)/main.c $(DEC_SRCS) $(DEC_LDLIBS)

$(DEC_O)/frec-decode-asan: $(DEC_DIR)/main.c $(DEC_DEPS) | $(DEC_O)
	$(CC) $(DEC_CFLAGS) $(DEC_ASAN) -o $@ $(DEC_DIR)/main.c $(DEC_SRCS) $(DEC_LDLIBS)

$(DEC_O)/frec-gen: $(DEC_DIR)/frec-gen.c $(DEC_DEPS) | $(DEC_O)
	$(CC) $(DEC_CFLAGS) -O2 -o $@ $< $(DEC_KSRCS)

# The unit tests index regions with a bound of 1 MiB, as the kernel's is
# INT_MAX bytes (frec_region_text.h), so that a region too large to index
# can be tested without allocating gigabytes.
DEC_TEST_CFLAGS := '-DFREC_REGION_ALLOC_MAX=(1ULL << 20)'

$(DEC_O)/test_decode: $(DEC_DIR)/test_decode.c $(DEC_DEPS) $(HARNESS_LIB) | $(DEC_O)
	$(CC) $(DEC_CFLAGS) $(DEC_TEST_CFLAGS) -O2 -o $@ $< $(DEC_SRCS) harness/harness_test.c \
		$(DEC_LDLIBS)

$(DEC_O)/test_decode-asan: $(DEC_DIR)/test_decode.c $(DEC_DEPS) $(HARNESS_LIB) | $(DEC_O)
	$(CC) $(DEC_CFLAGS) $(DEC_TEST_CFLAGS) $(DEC_ASAN) -o $@ $< $(DEC_SRCS) \
		harness/harness_test.c $(DEC_LDLIBS)

$(DEC_O)/fuzz_decode: $(DEC_DIR)/fuzz_decode.c $(DEC_DEPS) | $(DEC_O)
	$(FUZZ_CC) $(DEC_CFLAGS) $(FUZZ_NO_C2X) -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all -o $@ $< $(DEC_SRCS) $(DEC_LDLIBS)

$(DEC_O)/fuzz_region: $(DEC_DIR)/fuzz_region.c $(DEC_DEPS) | $(DEC_O)
	$(FUZZ_CC) $(DEC_CFLAGS) $(FUZZ_NO_C2X) -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all -o $@ $< $(DEC_SRCS) $(DEC_LDLIBS)

$(DEC_O)/fuzz_vmcore: $(DEC_DIR)/fuzz_vmcore.c $(DEC_DEPS) | $(DEC_O)
	$(FUZZ_CC) $(DEC_CFLAGS) $(FUZZ_NO_C2X) -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all -o $@ $< $(DEC_SRCS) $(DEC_LDLIBS)

$(DEC_O):
	mkdir -p $@

# Seeds: the crafted inputs and three small generated dumps, each behind
# the fuzz target's mode byte (see fuzz_decode.c).
$(DEC_O)/fuzz-seeds/.done: $(DEC_O)/frec-gen $(wildcard $(DEC_DIR)/testdata/*) \
		$(DEC_DIR)/tests/fuzz_seeds.py
	rm -rf $(DEC_O)/fuzz-seeds && mkdir -p $(DEC_O)/fuzz-seeds
	$(DEC_O)/frec-gen -n 40 -c 2 --unknown $(DEC_O)/fuzz-seeds/g1
	$(DEC_O)/frec-gen -n 25 -c 3 --swap --bad $(DEC_O)/fuzz-seeds/g2
	$(DEC_O)/frec-gen -n 30 -c 2 --global --shuffle --lose $(DEC_O)/fuzz-seeds/g3
	$(DEC_O)/frec-gen -n 20 -c 1 --region --no-expected $(DEC_O)/fuzz-seeds/g4
	python3 $(DEC_DIR)/tests/fuzz_seeds.py $(DEC_DIR)/testdata $(DEC_O)/fuzz-seeds
	touch $@

decode-check: $(DEC_O)/frec-decode $(DEC_O)/frec-decode-asan $(DEC_O)/frec-gen \
		$(DEC_O)/test_decode $(DEC_O)/test_decode-asan $(DEC_O)/fuzz_decode \
		$(DEC_O)/fuzz_region $(DEC_O)/fuzz_vmcore $(DEC_O)/fuzz-seeds/.done
	@rc=0; \
	mkdir -p $(DEC_O)/fuzz-corpus $(DEC_O)/fuzz-region-corpus $(DEC_O)/fuzz-vmcore-corpus; \
	{ nice -n 19 $(DEC_O)/fuzz_decode -max_total_time=$(FUZZ_SMOKE_SECONDS) \
		-max_len=8192 -print_final_stats=1 $(DEC_O)/fuzz-corpus \
		$(DEC_O)/fuzz-seeds > $(DEC_O)/fuzz-smoke.log 2>&1; \
	  echo $$? > $(DEC_O)/fuzz-smoke.rc; } & \
	{ nice -n 19 $(DEC_O)/fuzz_region -max_total_time=$(FUZZ_REGION_SMOKE_SECONDS) \
		$(FUZZ_REGION_FLAGS) -timeout=$(FUZZ_SMOKE_TIMEOUT) -print_final_stats=1 $(DEC_O)/fuzz-region-corpus \
		> $(DEC_O)/fuzz-region-smoke.log 2>&1; \
	  echo $$? > $(DEC_O)/fuzz-region-smoke.rc; } & \
	{ nice -n 19 $(DEC_O)/fuzz_vmcore -max_total_time=$(FUZZ_REGION_SMOKE_SECONDS) \
		$(FUZZ_VMCORE_FLAGS) -timeout=$(FUZZ_SMOKE_TIMEOUT) -print_final_stats=1 $(DEC_O)/fuzz-vmcore-corpus \
		> $(DEC_O)/fuzz-vmcore-smoke.log 2>&1; \
	  echo $$? > $(DEC_O)/fuzz-vmcore-smoke.rc; } & \
	echo "== decode/test_decode"; $(DEC_O)/test_decode || rc=1; \
	echo "== decode/test_decode-asan"; $(DEC_O)/test_decode-asan || rc=1; \
	echo "== decode/outputs"; python3 $(DEC_DIR)/tests/check_outputs.py \
		$(DEC_O) $(DEC_O)/frec-decode-asan || rc=1; \
	echo "== decode/region"; python3 $(DEC_DIR)/tests/check_region.py \
		$(DEC_O) $(DEC_O)/frec-decode-asan || rc=1; \
	echo "== decode/vmcore"; python3 $(DEC_DIR)/tests/check_vmcore.py \
		$(DEC_O) $(DEC_O)/frec-decode-asan || rc=1; \
	echo "== decode/json"; python3 $(DEC_DIR)/tests/check_json.py \
		$(DEC_O) $(DEC_O)/frec-decode-asan || rc=1; \
	echo "== decode/hist"; python3 $(DEC_DIR)/tests/check_hist.py \
		$(DEC_O) $(DEC_O)/frec-decode-asan || rc=1; \
	echo "== decode/in-flight"; python3 $(DEC_DIR)/tests/check_inflight.py \
		$(DEC_O) $(DEC_O)/frec-decode-asan || rc=1; \
	echo "== decode/trace-dat"; python3 $(DEC_DIR)/tests/check_tracedat.py \
		$(DEC_O) $(DEC_O)/frec-decode-asan || rc=1; \
	echo "== decode/m32"; $(DEC_DIR)/tests/check_m32.sh "$(CC)" $(ROOT) || rc=1; \
	echo "== decode/bad-inputs"; python3 $(DEC_DIR)/tests/check_bad.py \
		$(DEC_DIR)/testdata $(DEC_O)/frec-decode-asan || rc=1; \
	wait; \
	for f in fuzz-smoke fuzz-region-smoke fuzz-vmcore-smoke; do \
		echo "== decode/$$f (time-boxed, niced, beside the checks above)"; \
		if [ "$$(cat $(DEC_O)/$$f.rc)" = 0 ]; then \
			grep -E '^stat::number_of_executed_units' $(DEC_O)/$$f.log; \
			echo "1 passed, 0 failed"; \
		else \
			tail -n 30 $(DEC_O)/$$f.log; echo "0 passed, 1 failed"; rc=1; \
		fi; \
	done; \
	exit $$rc

fuzz: $(DEC_O)/fuzz_decode $(DEC_O)/fuzz_region $(DEC_O)/fuzz_vmcore $(DEC_O)/fuzz-seeds/.done
	mkdir -p $(DEC_O)/fuzz-corpus $(DEC_O)/fuzz-region-corpus $(DEC_O)/fuzz-vmcore-corpus
	@rc=0; nice -n 19 $(DEC_O)/fuzz_decode -runs=$(FUZZ_RUNS) -max_len=8192 \
		-print_final_stats=1 $(DEC_O)/fuzz-corpus $(DEC_O)/fuzz-seeds \
		> $(DEC_O)/fuzz.log 2>&1 || rc=$$?; \
	grep -E '^(stat::|Done|==|SUMMARY)' $(DEC_O)/fuzz.log; \
	echo "log: $(DEC_O)/fuzz.log"; \
	nice -n 19 $(DEC_O)/fuzz_region -runs=$(FUZZ_REGION_RUNS) $(FUZZ_REGION_FLAGS) -timeout=$(FUZZ_TIMEOUT) \
		-print_final_stats=1 $(DEC_O)/fuzz-region-corpus \
		> $(DEC_O)/fuzz-region.log 2>&1 || rc=$$?; \
	grep -E '^(stat::|Done|==|SUMMARY)' $(DEC_O)/fuzz-region.log; \
	echo "log: $(DEC_O)/fuzz-region.log"; \
	nice -n 19 $(DEC_O)/fuzz_vmcore -runs=$(FUZZ_REGION_RUNS) $(FUZZ_VMCORE_FLAGS) -timeout=$(FUZZ_TIMEOUT) \
		-print_final_stats=1 $(DEC_O)/fuzz-vmcore-corpus \
		> $(DEC_O)/fuzz-vmcore.log 2>&1 || rc=$$?; \
	grep -E '^(stat::|Done|==|SUMMARY)' $(DEC_O)/fuzz-vmcore.log; \
	echo "log: $(DEC_O)/fuzz-vmcore.log"; exit $$rc

bench-decode: $(DEC_O)/frec-decode $(DEC_O)/frec-gen
	BENCH_RECORDS=$(BENCH_RECORDS) sh $(DEC_DIR)/tests/bench.sh $(DEC_O) \
		$(O)/bench_decode.csv

install: $(DEC_O)/frec-decode
	install -D -m 0755 $(DEC_O)/frec-decode $(DESTDIR)$(PREFIX)/bin/frec-decode
	install -D -m 0644 $(DEC_DIR)/frec-decode.1 \
		$(DESTDIR)$(PREFIX)/share/man/man1/frec-decode.1

.PHONY: decode decode-check fuzz bench-decode install
