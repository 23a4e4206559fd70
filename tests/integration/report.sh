#!/bin/bash
# usbperf report: the HTML page in a real browser (headless Chromium) and the
# text report. Runs come from the hand-written fixtures (three runs of one
# stick, one a regression) and from a real `usbperf run` on this machine,
# read back from its JSON and from the history. In the browser a probe
# script, added to a copy of the page (the page itself has none), reads the
# DOM and the layout: the sections, one sweep mark per measured point, the
# ceiling, the figures, the charts' rendered size, and no sideways scrolling
# of the page on a 400 px wide phone. Screenshots (desktop, phone) and a
# printed PDF are kept in $ARTEFACTS.
. "$(dirname "$0")/lib.sh"
need_cmd jq base64

FIXTURES=$(cd "$(dirname "$0")/../fixtures" && pwd)
ARTEFACTS=${ARTEFACTS:-$WORK/artefacts}
mkdir -p "$ARTEFACTS"
A=20261130T051200Z-3f2a
DB="$WORK/h.db"

# ---- bad input: one line, exit 2, nothing written ----
expect_status 2 "no run named" "$USBPERF" report --db "$DB" --html "$WORK/x.html"
one_line_error "no run"
expect_status 2 "unknown run" "$USBPERF" report --db "$DB" nosuchrun --html "$WORK/x.html"
one_line_error "unknown run"
expect_status 2 "missing file" "$USBPERF" report "$WORK/none.json" --html "$WORK/x.html"
one_line_error "missing file"
printf '{"usbperf_export":1,"runs":[{"id":"r"}]}' >"$WORK/bad.json"
expect_status 2 "malformed run file" "$USBPERF" report "$WORK/bad.json" --html "$WORK/x.html"
one_line_error "malformed run file"
expect_status 2 "html in a missing directory" "$USBPERF" report "$FIXTURES/runs-a.json" \
	--html "$WORK/no/dir/x.html"
one_line_error "html directory"
expect_status 2 "json is not a report format" "$USBPERF" report "$FIXTURES/runs-a.json" -F json
one_line_error "json format"
expect_status 2 "nine runs" "$USBPERF" report r1 r2 r3 r4 r5 r6 r7 r8 r9
one_line_error "too many runs"
check "nothing written on bad input" test ! -e "$WORK/x.html" -a ! -e "$DB"

# ---- the fixtures: three runs from two files, no history needed ----
expect_status 0 "report of three runs from files" "$USBPERF" report "$FIXTURES/runs-a.json" \
	"$FIXTURES/runs-b.json" --html "$WORK/three.html"
H="$WORK/three.html"
check "a complete page" grep -q '</html>' "$H"
check "no script in the page" sh -c "! grep -qi '<script' '$H'"
check "nothing fetched: no src=, <link, url(" sh -c "! grep -Eqi 'src=|<link|url\\(' '$H'"
check "the only http is the SVG namespace" \
	test "$(grep -o 'http[^\"]*' "$H" | sort -u)" = "http://www.w3.org/2000/svg"
expect_status 0 "text report of the same" env LANG=C.UTF-8 "$USBPERF" report \
	"$FIXTURES/runs-a.json" "$FIXTURES/runs-b.json"
check "text: regression of run 3 named" grep -q '^run 3 against run 1: regression' "$WORK/out"
check "text: a bar against the ceiling" grep -Eq 'seq-read 1M +182.4 ±1.1 MB/s  ██████ +38%' \
	"$WORK/out"
expect_status 0 "text report in the C locale" env LC_ALL=C "$USBPERF" report \
	"$FIXTURES/runs-a.json"
check "C locale: plain ASCII" sh -c "! LC_ALL=C grep -q '[^[:print:]]' '$WORK/out'"
check "C locale: '#' bars and +- spread" grep -Eq 'seq-read 1M +182.4 \+-1.1 MB/s  ###### +38%' "$WORK/out"

# ---- with criteria: the checks in the page, JUnit, LAVA, the exit status ----
cat >"$WORK/crit.json" <<'J'
{"usbperf_criteria": 1, "criteria": [
 {"device": "0781:5583", "name": "seq-read 1M", "metric": "mb_s", "min": 175, "unit": "MB/s"}]}
J
expect_status 1 "report with criteria: run 3's 171 MB/s fails it" "$USBPERF" report \
	"$FIXTURES/runs-a.json" "$FIXTURES/runs-b.json" --criteria "$WORK/crit.json" \
	--html "$WORK/checked.html" --junit "$WORK/checked.xml"
check "a Checks section with two passes and one failure" sh -c "grep -q '<section id=\"checks\">' \
	'$WORK/checked.html' && [ \$(grep -o '<tr class=\"r-pass\">' '$WORK/checked.html' | wc -l) = 2 ] &&
	[ \$(grep -o '<tr class=\"r-fail\">' '$WORK/checked.html' | wc -l) = 1 ]"
check "the JUnit file has the failure" grep -q '<failure message="&gt;= 175 MB/s: 171 below the minimum 175"' "$WORK/checked.xml"
if command -v xmllint >/dev/null; then
	check "the JUnit file is well-formed" xmllint --noout "$WORK/checked.xml"
fi
expect_status 0 "report --lava alone: every measurement passes" "$USBPERF" report \
	"$FIXTURES/runs-a.json" --lava
check "stdout is LAVA signals only" sh -c "! grep -qv '^<LAVA_SIGNAL_' '$WORK/out' &&
	[ \$(grep -c 'RESULT=pass MEASUREMENT=' '$WORK/out') = 6 ]"

# ---- a real run: its JSON and the history ----
mkdir -p "$WORK/scratch"
expect_status 0 "a real run" "$USBPERF" run "$WORK/scratch" --quick --size 16M --time 1 --min-time 0 \
	--repeat 2 --db "$DB" -q -F json -o "$WORK/run.json"
expect_status 0 "report of run -F json's output" "$USBPERF" report "$WORK/run.json" \
	--html "$WORK/real.html"
expect_status 0 "report of 'last' in the history" "$USBPERF" report --db "$DB" last -o \
	"$WORK/real.txt"
check "text names the run" grep -q "$(jq -r .run.id "$WORK/run.json")" "$WORK/real.txt"

# ---- in the browser ----
BROWSER=$(command -v chromium || command -v chromium-browser || true)
[ -n "$BROWSER" ] || skip "needs chromium (Debian package 'chromium') for the browser checks"
browse() { # WIDTH FLAGS... : headless Chromium with a private profile
	local w=$1
	shift
	timeout 120 "$BROWSER" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
		--no-first-run --user-data-dir="$WORK/chromium" --hide-scrollbars \
		--window-size="$w,1200" "$@" 2>>"$WORK/chromium.log"
}
# The probe runs in a copy of the page shown in an iframe of the width under
# test (headless Chromium's own window is at least 500 px wide) and posts what
# it finds to the frame around it, which keeps it in its DOM for --dump-dom.
PROBE='<script>addEventListener("load",function(){
var q=function(s){return Array.prototype.slice.call(document.querySelectorAll(s));};
var r={sections:q("section[id]").map(function(s){return s.id;}),
charts:q("svg.chart").map(function(s){var b=s.getBoundingClientRect();return [b.width,b.height];}),
points:q("svg.sweep circle").length,
ceilings:q("svg .ceillabel").map(function(t){return t.textContent;}),
figures:q("table.figures").map(function(t){return t.textContent;}).join(" "),
worse:q("table.compare tr.v-worse").length,
glance:q("table.glance tr").slice(1).map(function(t){return t.textContent;}),
verdicts:q("#summary li.verdict").map(function(t){return t.textContent;}),
verdictFirst:q("#summary h2 + ul.verdicts").length==1,
notes:q("#summary li.note").map(function(t){return t.textContent;}),
groups:q("#findings .fgroup").map(function(g){return g.getAttribute("data-group");}),
unmeasured:q("#topology .unmeasured").map(function(t){return t.textContent;}),
overflow:document.documentElement.scrollWidth>window.innerWidth,width:window.innerWidth};
parent.postMessage(btoa(unescape(encodeURIComponent(JSON.stringify(r)))),"*");});
</script>'
frame() { # PAGE WIDTH: a page showing PAGE in an iframe WIDTH px wide
	printf '<!DOCTYPE html><html><body style="margin:0"><pre id="probe"></pre>
<iframe src="file://%s" style="border:0;width:%spx;height:2600px"></iframe>
<script>addEventListener("message",function(e){document.getElementById("probe").textContent=e.data;});</script>
</body></html>' "$1" "$2" >"$WORK/frame.html"
}
probe() { # PAGE WIDTH OUT: the probe's JSON for PAGE at WIDTH
	sed "s|</body>|$(printf '%s' "$PROBE" | tr '\n' ' ' | sed 's/[&|]/\\&/g')</body>|" "$1" \
		>"$WORK/probed.html"
	frame "$WORK/probed.html" "$2"
	browse 1100 --allow-file-access-from-files --virtual-time-budget=5000 \
		--dump-dom "file://$WORK/frame.html" >"$WORK/dom.html"
	sed -n 's|.*<pre id="probe">\([A-Za-z0-9+/=]*\)</pre>.*|\1|p' "$WORK/dom.html" |
		base64 -d >"$3" 2>/dev/null
}

probe "$H" 1000 "$WORK/p3.json"
jq_check "$WORK/p3.json" '.sections == ["summary","setup","topology","device-1","device-2","findings","comparison"]' \
	"three runs: summary, setup, topology, a section per device, findings, comparison"
# one mark per sweep point: every mb_s of a "seq-read 1M"-like pass in the files
want=$(jq -s '[.[].runs[].metrics[] | select(.metric == "mb_s" and
	(.name | test("^(seq-read|seq-write|copy) [0-9]+[KMG]?$")))] | length' \
	"$FIXTURES/runs-a.json" "$FIXTURES/runs-b.json")
jq_check "$WORK/p3.json" ".points == $want" "one sweep mark per measured point ($want)"
jq_check "$WORK/p3.json" '[.charts[] | .[0] > 300 and .[1] > 100] | all' "every chart drawn at a real size"
jq_check "$WORK/p3.json" '.ceilings | map(test("bus ceiling 484.8 MB/s")) | any' "the SuperSpeed ceiling drawn"
jq_check "$WORK/p3.json" '.figures | test("182.4") and test("171.0")' "run 1's and run 3's seq-read 1M in the figures"
jq_check "$WORK/p3.json" ".worse == 4" "run 3's four regressions marked worse"
jq_check "$WORK/p3.json" '.glance | length == 6 and (.[0] | test("182.4 MB/s at 1M") and test("38%")) and (.[2] | test("171.0 MB/s at 1M") and test("35%"))' \
	"at a glance: each device in each run, best read with its share of the ceiling"
jq_check "$WORK/p3.json" '.overflow == false' "desktop: no sideways scrolling"

probe "$H" 375 "$WORK/p3-phone.json"
jq_check "$WORK/p3-phone.json" '.width == 375 and .overflow == false' \
	"phone (375 px): the page does not scroll sideways (wide parts scroll in place)"

probe "$WORK/real.html" 1000 "$WORK/preal.json"
want=$(jq '[.metrics[] | select(.metric == "mb_s" and (.name | test("^(seq-read|seq-write|copy) [0-9]+[KMG]?$")))] | length' "$WORK/run.json")
jq_check "$WORK/preal.json" ".points == $want and .points >= 6" "real run: a mark per sweep point ($want)"
read1m=$(jq -r '.metrics[] | select(.name == "seq-read 1M" and .metric == "mb_s") | .value' "$WORK/run.json")
# as the page prints it: about four significant digits (html_prec)
shown=$(awk -v v="$read1m" 'BEGIN { a = v < 0 ? -v : v
	printf "%.*f", (a >= 1000 ? 0 : a >= 100 ? 1 : a >= 1 ? 2 : 3), v }')
jq_check "$WORK/preal.json" ".figures | test(\"(^|[^0-9])${shown//./\\\\.}([^0-9]|\$)\")" \
	"real run: its seq-read 1M ($read1m MB/s) in the figures"

# the verdict per device in "At a glance", first; the notes; findings grouped (issue 14.1, 14.5)
jq -r '.verdicts[] | "\(.device_key) \(.limiter): \(.evidence)"' "$WORK/run.json" >"$WORK/verdicts.txt"
check "real run: run -F json has a verdict per device" \
	test "$(wc -l <"$WORK/verdicts.txt")" = "$(jq '.devices | length' "$WORK/run.json")"
jq_check "$WORK/preal.json" ".verdictFirst and (.verdicts | length) == $(wc -l <"$WORK/verdicts.txt")" \
	"real run: at a glance opens with one verdict line per device"
jq_check "$WORK/preal.json" "[.verdicts[] | gsub(\"\\\\s+\"; \" \")] == $(jq -R . "$WORK/verdicts.txt" | jq -s .)" \
	"real run: each line the device, its limiter and the figure that shows it"
jq_check "$WORK/preal.json" ".notes == $(jq '[.notes[] | "note: \(.text)"]' "$WORK/run.json")" \
	"real run: the run's notes at a glance ($(jq '.notes | length' "$WORK/run.json"))"
jq_check "$WORK/preal.json" '.groups | length > 0 and (map(. == "device") | index(true)) == 0' \
	"real run: findings grouped, a device's first"
# a device found and not measured, and a note, in a run file: the topology shows it with why
jq '.unmeasured = [{"key": "1-2", "kind": "usb-net", "name": "eth1", "vid_pid": "0b95:1790",
	"why": "a network interface: measured only with --peer HOST"}] |
	.notes += [{"text": "eth1 (USB 1-2) is a network interface: not measured without --peer"}]' \
	"$WORK/run.json" >"$WORK/run-unmeasured.json"
expect_status 0 "report of a run with a device not measured" "$USBPERF" report \
	"$WORK/run-unmeasured.json" --html "$WORK/unmeasured.html"
probe "$WORK/unmeasured.html" 1000 "$WORK/pun.json"
jq_check "$WORK/pun.json" '.unmeasured == ["1-2  eth1 0b95:1790 not measured: a network interface: measured only with --peer HOST"]' \
	"topology: the device found and not measured, with why"
jq_check "$WORK/pun.json" '.notes[-1] == "note: eth1 (USB 1-2) is a network interface: not measured without --peer"' \
	"at a glance: the note"
probe "$WORK/unmeasured.html" 390 "$WORK/pun-phone.json"
jq_check "$WORK/pun-phone.json" '.width == 390 and .overflow == false and (.verdicts | length) > 0' \
	"phone (390 px): verdicts and notes do not make the page scroll sideways"

# ---- artefacts: what a person would look at ----
browse 1000 --screenshot="$ARTEFACTS/report-desktop.png" --window-size=1000,2600 "file://$H" >/dev/null
frame "$H" 375
browse 500 --screenshot="$ARTEFACTS/report-phone.png" --window-size=500,2600 "file://$WORK/frame.html" >/dev/null
browse 1000 --print-to-pdf="$ARTEFACTS/report.pdf" --no-pdf-header-footer "file://$H" >/dev/null
cp "$H" "$ARTEFACTS/report.html"
check "desktop screenshot kept" sh -c "head -c 8 '$ARTEFACTS/report-desktop.png' | grep -q PNG"
check "phone screenshot kept" sh -c "head -c 8 '$ARTEFACTS/report-phone.png' | grep -q PNG"
check "printed to PDF" sh -c "head -c 5 '$ARTEFACTS/report.pdf' | grep -q '%PDF-'"
echo "artefacts: $ARTEFACTS"
finish
