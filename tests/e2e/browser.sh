# Shared by the HTML report tests: source it after testlib.sh. Finds Debian's
# chromium (exit 77, skipped, when it is not installed), gives load PAGE
# (the DOM after scripts ran into PAGE.dom, console messages into
# PAGE.console, networking off) and checks first that the detector sees a
# broken page, or a clean result would mean nothing.
browser="$(command -v chromium || command -v chromium-browser || true)"
if [ -z "$browser" ]; then
  echo "chromium is not installed (tools/setup-debian.sh installs it): skipped"
  exit 77
fi

load() {
  timeout 60 "$browser" --headless --no-sandbox --disable-gpu \
    --user-data-dir="$tmp/profile" --host-resolver-rules='MAP * ~NOTFOUND' \
    --enable-logging=stderr --v=0 --dump-dom "file://$1" \
    >"$1.dom" 2>"$1.log"
  grep 'CONSOLE' "$1.log" >"$1.console"
}

printf '<html><body><img src="https://example.com/x.png"><script>undefinedFn();</script></body></html>' >"$tmp/broken.html"
load "$tmp/broken.html"
if grep -q 'undefinedFn' "$tmp/broken.html.console"; then
  ok "a page with a script error is caught"
else
  fail "detector" "no console error seen for a broken page: $(tail -3 "$tmp/broken.html.log")"
fi

# A page that loads with no console message and references no other address.
clean_page() {
  if [ -s "$1.dom" ] && [ ! -s "$1.console" ]; then
    ok "the report loads without console messages"
  else
    fail "console" "$(head -5 "$1.console")"
  fi
  if grep -qE "(src|href)=['\"]?(https?:)?//" "$1"; then
    fail "self-contained" "the page references another address"
  else
    ok "the page is self-contained"
  fi
}

# The page of `"$lpx" ARGS... --report` and the JSON of the same run
# (--json), the page loaded and checked clean with its script run:
# report_and_json NAME ARGS... writes $tmp/NAME.html (its DOM in
# $tmp/NAME.html.dom), $tmp/NAME.json and the text output in $tmp/text.out.
report_and_json() {
  local name="$1"; shift
  "$lpx" "$@" --report "$tmp/$name.html" >"$tmp/text.out" || die "lpx $1 --report"
  "$lpx" "$@" --json >"$tmp/$name.json" || die "lpx $1 --json"
  load "$tmp/$name.html"
  clean_page "$tmp/$name.html"
  grep -q 'data-ready="1"' "$tmp/$name.html.dom" && ok "its script ran" ||
    fail "script" "data-ready is not 1"
}

# Every id named after the DOM file is an element of it.
expect_ids() {
  local dom="$1" missing=""; shift
  for id in "$@"; do
    grep -q "id=\"$id\"" "$dom" || missing="$missing #$id"
  done
  [ -z "$missing" ] && ok "every expected section is there" || fail "elements" "missing:$missing"
}
