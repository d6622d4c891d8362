# Shared by scripts/start and scripts/test: a project virtualenv with agency installed.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${AGENCY_VENV:-$ROOT/.venv}"
PYTHON="${PYTHON:-python3}"

need() { command -v "$1" >/dev/null 2>&1; }

apt_install() {
  # Debian packages, installed only when missing (needs root, as on CI and dev machines here).
  local missing=()
  for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "Please install: ${missing[*]} (apt-get install ${missing[*]})" >&2
    return 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

ensure_venv() {
  local extras="$1"
  need npm || { echo "Node.js 20+ with npm is required to build the web UI" >&2; exit 1; }
  [ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV"
  "$VENV/bin/python" -m pip install -q --upgrade pip
  "$VENV/bin/python" -m pip install -q -e "$ROOT$extras"
}
