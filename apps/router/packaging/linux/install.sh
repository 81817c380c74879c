#!/bin/sh
# Installs (or re-installs) the Radflow router @VERSION@ as a systemd service. Run as root from the
# unpacked folder: sudo ./install.sh. Needs Node.js 20 or newer (`node --version`).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
PREFIX=/opt/radflow-router
VERSION=@VERSION@

command -v node >/dev/null 2>&1 || { echo "Node.js 20 or newer is needed: install it first." >&2; exit 1; }
NODE_MAJOR=$(node -p 'process.versions.node.split(".")[0]')
[ "$NODE_MAJOR" -ge 20 ] || { echo "Node.js 20 or newer is needed (found $(node --version))." >&2; exit 1; }

id radflow-router >/dev/null 2>&1 || useradd --system --home-dir "$PREFIX" --shell /usr/sbin/nologin radflow-router
mkdir -p "$PREFIX/versions/$VERSION" /var/lib/radflow-router
cp -R "$HERE/app/." "$PREFIX/versions/$VERSION/"
cp "$HERE/launcher.mjs" "$PREFIX/"
echo "$VERSION" > "$PREFIX/current"
# The service updates itself: it writes new versions and the `current` pointer here.
chown -R radflow-router:radflow-router "$PREFIX" /var/lib/radflow-router
[ -f /etc/radflow-router.env ] || printf '# ROUTER_SERVER_URL=https://your-radflow-server\n' > /etc/radflow-router.env
cp "$HERE/radflow-router.service" /etc/systemd/system/radflow-router.service
systemctl daemon-reload
systemctl enable --now radflow-router.service
echo "Radflow router $VERSION installed: systemctl status radflow-router"
