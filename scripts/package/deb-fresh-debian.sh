#!/usr/bin/env bash
# Install the .deb packages on a fresh Debian 12, the way a user would, and
# use them: a minimal bookworm made by debootstrap in DIR, where apt installs
# the three packages with what they depend on and recommend; then amp-info
# runs, and the README's first example is built with pkg-config and run.
# Needs root and access to a Debian mirror; takes a few minutes and about
# 2 GB in DIR. Not part of the test suite (deb_package checks the packages
# without a network, in a scratch root); run it when the packaging changes.
#   scripts/package/deb-fresh-debian.sh [DIR]     default: /tmp/amp-fresh-debian
# Environment: MIRROR (default http://deb.debian.org/debian). DIR is removed
# first and left behind for a look; its mounts live only as long as the run.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
dir=${1:-/tmp/amp-fresh-debian}
mirror=${MIRROR:-http://deb.debian.org/debian}
[ "$(id -u)" -eq 0 ] || { echo "deb-fresh-debian.sh: run it as root (debootstrap, chroot)" >&2; exit 1; }

rm -rf "$dir"
mkdir -p "$dir"
echo "== the packages (scripts/package/build-deb.sh)"
scripts/package/build-deb.sh "$dir/build" > "$dir/build-deb.log" 2>&1 || { cat "$dir/build-deb.log" >&2; exit 1; }
tail -3 "$dir/build-deb.log"

# debootstrap from its package, unpacked here, when it is not installed.
debootstrap=(debootstrap)
if ! command -v debootstrap >/dev/null; then
  (cd "$dir" && apt-get download debootstrap >/dev/null 2>&1)
  dpkg -x "$dir"/debootstrap_*.deb "$dir/debootstrap"
  debootstrap=(env DEBOOTSTRAP_DIR="$dir/debootstrap/usr/share/debootstrap" "$dir/debootstrap/usr/sbin/debootstrap")
fi
echo "== a fresh Debian 12 (debootstrap --variant=minbase bookworm)"
"${debootstrap[@]}" --variant=minbase bookworm "$dir/chroot" "$mirror" > "$dir/debootstrap.log" 2>&1 ||
  { tail -20 "$dir/debootstrap.log" >&2; exit 1; }

mkdir -p "$dir/chroot/root/amp"
cp "$dir"/build/*.deb "$root/tests/docs/my_program.c" "$dir/chroot/root/amp/"
cp /etc/resolv.conf "$dir/chroot/etc/"
cat > "$dir/chroot/root/amp/run.sh" <<'EOF'
#!/bin/bash
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive PATH=/usr/sbin:/usr/bin:/sbin:/bin
cd /root/amp
apt-get update -qq
echo "== apt-get install ./*.deb"
apt-get install -y -q ./*.deb > apt.log 2>&1 || { cat apt.log; exit 1; }
grep -E '^Setting up (libamp|amp-tools|ocl-icd|pocl)' apt.log
echo "== amp-info"
amp-info
echo "== the README's first example, built with pkg-config"
apt-get install -y -qq --no-install-recommends gcc libc6-dev pkg-config > /dev/null
echo "cc -std=c11 my_program.c \$(pkg-config --cflags --libs amp) -o my_program"
cc -std=c11 my_program.c $(pkg-config --cflags --libs amp) -o my_program
./my_program
ldd my_program | grep -E 'libamp|libOpenCL'
EOF
chmod +x "$dir/chroot/root/amp/run.sh"
# A mount namespace of its own: /proc, /sys and /dev are unmounted with it.
unshare -m bash -c "
  mount -t proc proc '$dir/chroot/proc'
  mount --rbind /sys '$dir/chroot/sys'
  mount --rbind /dev '$dir/chroot/dev'
  chroot '$dir/chroot' /root/amp/run.sh"
echo "the packages installed and ran on a fresh Debian 12 (in $dir/chroot)"
