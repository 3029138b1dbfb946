# SPDX-License-Identifier: GPL-2.0
# Shared helpers for frec's host-side scripts.  Source it; do not run it.

FREC_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FREC_CACHE=${FREC_CACHE:-$HOME/.cache/frec}
FREC_BUILD=${FREC_BUILD:-$FREC_ROOT/build}

die() { echo "$(basename "$0"): $*" >&2; exit 1; }
note() { echo "$(basename "$0"): $*" >&2; }

# The kernel release of Debian's linux-headers-amd64 metapackage (e.g.
# 6.1.0-56-amd64).  Not `uname -r`: this machine's kernel is unrelated to
# the one the guest boots.
stock_kver() {
	if [ -n "${FREC_KVER:-}" ]; then
		echo "$FREC_KVER"
		return
	fi
	local dep
	dep=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 2>/dev/null) ||
		die "linux-headers-amd64 is not installed (run .ci/run or scripts/install-deps.sh)"
	dep=${dep%% *}
	echo "${dep#linux-headers-}"
}
