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
check "the comparison names a metric by its label, not its key" sh -c "grep -q \
	'<td>seq-read 1M</td><td>rate</td>' '$H' && ! grep -q '<td>mb_s</td>' '$H'"
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
check "the JUnit file has the failure" grep -q '<failure message="&gt;= 175 MB/s: 171.0 MB/s below the minimum 175 MB/s"' "$WORK/checked.xml"
if command -v xmllint >/dev/null; then
	check "the JUnit file is well-formed" xmllint --noout "$WORK/checked.xml"
fi
# 29.2.2: measurements nothing was asked of: 'unknown' (measured, not judged), never a pass
expect_status 0 "report --lava alone: every measurement, none a pass" "$USBPERF" report \
	"$FIXTURES/runs-a.json" --lava -q
check "-q: stdout is LAVA signals only" sh -c "! grep -qv '^<LAVA_SIGNAL_' '$WORK/out' &&
	[ \$(grep -c 'RESULT=unknown MEASUREMENT=' '$WORK/out') = 6 ] && ! grep -q 'RESULT=pass' '$WORK/out'"
expect_status 0 "report --lava: the text report, then the signals" "$USBPERF" report \
	"$FIXTURES/runs-a.json" --lava
check "the text report is printed as well" grep -q 'seq-read 1M' "$WORK/out"
check "and the same six signals" test "$(grep -c 'RESULT=unknown MEASUREMENT=' "$WORK/out")" = 6

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
points:q("svg.sweep .mark").length,
shapes:q("svg.sweep").map(function(s){return {read:s.querySelectorAll("circle.mark").length,write:s.querySelectorAll("rect.mark").length};}),
legendmarks:q(".legend li").map(function(l){var m=l.querySelector(".mark");return (m?m.tagName:"")+" "+l.textContent.trim();}),
cmpoff:q("table.compare tr").map(function(t){var c=t.children[0],d=t.children[1];return c&&d&&(c.getBoundingClientRect().right>window.innerWidth+.5||d.getBoundingClientRect().right>window.innerWidth+.5);}).filter(function(x){return x;}).length,
cmphead:q("table.compare tr:first-child th").slice(0,2).map(function(t){return t.textContent;}),
glancedash:q("table.glance td").filter(function(t){return t.textContent.trim()=="-";}).length,
next:q("#summary li.next").map(function(t){return t.textContent;}),
ceilings:q("svg .ceillabel").map(function(t){return t.textContent;}),
figures:q("table.figures").map(function(t){return t.textContent;}).join(" "),
worse:q("table.compare tr.v-worse").length,
glance:q("table.glance tr").slice(1).map(function(t){return t.textContent;}),
verdicts:q("#summary li.verdict").map(function(t){return t.textContent;}),
verdictFirst:q("#summary h2 + ul.verdicts").length==1,
notes:q("#summary li.note").map(function(t){return t.textContent;}),
groups:q("#findings .fgroup").map(function(g){return g.getAttribute("data-group");}),
unmeasured:q("#topology .unmeasured").map(function(t){return t.textContent;}),
overflow:document.documentElement.scrollWidth>window.innerWidth,width:window.innerWidth,
outside:[],minfont:99,wide:[],overlaps:[],impossible:q("svg.chart .impossible").length,
glanceimp:q("table.glance span.impossible:not(.bar)").map(function(t){return t.textContent;}),
figimp:q("table.figures td.impossible").length,log:q("svg.sweep.log").length,
lines:q("svg.sweep polyline").map(function(l){return l.getAttribute("points").split(" ").length;})};
q("svg.chart").forEach(function(s){var b=s.getBoundingClientRect(),k=b.width/s.viewBox.baseVal.width;
Array.prototype.slice.call(s.querySelectorAll("text,circle")).forEach(function(t){
var c=t.getBoundingClientRect();if(c.left<b.left-.5||c.right>b.right+.5||c.top<b.top-.5||c.bottom>b.bottom+.5)
r.outside.push((t.textContent||t.tagName).slice(0,40));
if(t.tagName=="text")r.minfont=Math.min(r.minfont,parseFloat(getComputedStyle(t).fontSize)*k);});
var ts=Array.prototype.slice.call(s.querySelectorAll("text")).map(function(t){return [t.textContent,t.getBoundingClientRect()];});
ts.forEach(function(x,i){ts.slice(i+1).forEach(function(y){var a=x[1],c=y[1];
if(Math.min(a.right,c.right)-Math.max(a.left,c.left)>1&&Math.min(a.bottom,c.bottom)-Math.max(a.top,c.top)>1)
r.overlaps.push(x[0].slice(0,20)+" / "+y[0].slice(0,20));});});});
q("table.glance td, svg.chart").forEach(function(e){if(e.getBoundingClientRect().right>window.innerWidth+.5)
r.wide.push(e.tagName+" "+e.textContent.slice(0,30));});
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
jq_check "$WORK/p3.json" '.figures | test("rateMB/s") and test("p99us") and (test("mb_s|lat_p99_us|cpu_sys_pct") | not)' \
	"figures headed by label and unit (rate MB/s, p99 us), not by field keys"
jq_check "$WORK/p3.json" ".worse == 4" "run 3's four regressions marked worse"
jq_check "$WORK/p3.json" '.glance | length == 6 and (.[0] | test("182.4 MB/s at 1M") and test("38%")) and (.[2] | test("171.0 MB/s at 1M") and test("35%"))' \
	"at a glance: each device in each run, best read with its share of the ceiling"
jq_check "$WORK/p3.json" '.overflow == false' "desktop: no sideways scrolling"

probe "$H" 390 "$WORK/p3-phone.json"
jq_check "$WORK/p3-phone.json" '.width == 390 and .overflow == false' \
	"phone (390 px): the page does not scroll sideways (figures tables scroll in place)"
# 29.2.10: on a phone the comparison's verdict and change are on screen; at a glance
# shows no "-" for what was measured; a one-block-size chart tells read from write
for w in 1366 390; do
	[ $w = 1366 ] && f=$WORK/p3-1366.json || f=$WORK/p3-phone.json
	[ $w = 1366 ] && probe "$H" 1366 "$f"
	jq_check "$f" '.cmphead == ["verdict", "change"] and .cmpoff == 0' \
		"$w px: the comparison's verdict and change first, within the screen"
	jq_check "$f" '.glancedash == 0' "$w px: at a glance, no '-' where a figure was measured"
	jq_check "$f" '([.shapes[] | select(.read > 0 and .write > 0)] | length) >= 1 and all(.shapes[]; .read > 0)' \
		"$w px: the one-block-size sweep's read marks are circles, its write marks squares"
	jq_check "$f" '([.legendmarks[] | select(test("seq-write")) | startswith("rect")] | length > 0 and all) and
		([.legendmarks[] | select(test("seq-read")) | startswith("circle")] | length > 0 and all)' \
		"$w px: the legend shows each direction's mark"
done

# ---- honest visuals, at a desktop and a phone width ----
# every chart label and mark inside its SVG, chart text at least 11 px,
# at a glance and the charts within a 390 px phone's width
visuals() { # PROBE-JSON WHAT
	jq_check "$1" '.outside == []' "$2: every chart label and mark inside its SVG"
	jq_check "$1" '.minfont >= 11' "$2: chart text at least 11 px"
	jq_check "$1" '.overlaps == []' "$2: no chart label drawn over another"
	jq_check "$1" '.wide == [] and .overflow == false' "$2: nothing runs off sideways"
}
visuals "$WORK/p3.json" "desktop (1000 px)"
visuals "$WORK/p3-phone.json" "phone (390 px)"
jq_check "$WORK/p3.json" '.impossible == 0 and .glanceimp == [] and .figimp == 0' \
	"shares under 100 % are not marked impossible"
# an impossible share: the same stick as if at full speed (1.216 MB/s), with a
# sweep from 4K (7.9 MB/s) to 1M (182.4) that spans more than 20x, and 16K
# written but not read: the read line may not cross it
jq '.runs[0].devices[0] += {speed: "full", capable_speed: "full", ceiling_mb_s: 1.216} |
	.runs[0].metrics += [
	{device_key: "2-1", test: "disk", name: "seq-read 4K", metric: "mb_s", value: 7.9,
	 unit: "MB/s", repeats: 1, higher_is_better: true},
	{device_key: "2-1", test: "disk", name: "seq-read 64K", metric: "mb_s", value: 96.5,
	 unit: "MB/s", repeats: 1, higher_is_better: true},
	{device_key: "2-1", test: "disk", name: "seq-write 16K", metric: "mb_s", value: 20.5,
	 unit: "MB/s", repeats: 1, higher_is_better: true},
	{device_key: "2-1", test: "net", name: "tcp send", metric: "mbit_s", value: 940.2,
	 unit: "Mbit/s", repeats: 1, higher_is_better: true}]' "$FIXTURES/runs-a.json" >"$WORK/imp.json"
expect_status 0 "report of a run above its bus ceiling" "$USBPERF" report "$WORK/imp.json" \
	--html "$WORK/imp.html"
expect_status 0 "text report of the same" env LANG=C.UTF-8 "$USBPERF" report "$WORK/imp.json"
# 29.2.4: a figure above its ceiling is an anomaly, never a share to read (not "15000%")
check "text: above the ceiling flagged an anomaly, no share" grep -Eq \
	"seq-read 1M +182.4 ±1.1 MB/s  ▒+  above .*anomaly: above the ceiling, not the bus's figure" "$WORK/out"
check "text: no share above 100 % printed" sh -c "! grep -Eq '(^| )[0-9]{4,}%' '$WORK/out'"
check "text: the ceiling written as on the page" grep -q "bus ceiling 1.22 MB/s (19 x 64 B" "$WORK/out"
check "text: a network rate in Mbit/s and MB/s" grep -Eq "tcp send +940.2 Mbit/s = 117.5 MB/s" "$WORK/out"
check "text: the sweep on a log scale as on the page" grep -q "4K to 1M (one log scale, 7.90 to 182.4 MB/s)" "$WORK/out"
for w in 1000 390; do
	probe "$WORK/imp.html" $w "$WORK/pimp-$w.json"
	visuals "$WORK/pimp-$w.json" "above the ceiling, $w px"
	jq_check "$WORK/pimp-$w.json" '.glanceimp | length == 2 and (.[0] | test("^anomaly: above the ceiling . not the bus.s figure$"))' \
		"$w px: at a glance, above the ceiling flagged an anomaly, no share"
	jq_check "$WORK/pimp-$w.json" '.impossible >= 5 and .figimp == 6' \
		"$w px: the marks and bars above the ceiling and the figures' shares drawn as impossible"
	jq_check "$WORK/pimp-$w.json" '.figures | test("940.2117.5 MB/s")' "$w px: a network rate in Mbit/s and MB/s"
	jq_check "$WORK/pimp-$w.json" '.log == 1 and .lines == [2]' \
		"$w px: a log axis for 7.9 to 182.4 MB/s; lines only between neighbouring measured sizes"
done

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
jq -r '.verdicts[] | "\(.device) \(.limiter): \(.evidence)"' "$WORK/run.json" >"$WORK/verdicts.txt"
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

# a full sweep (4K to 4M, seven sizes each way) and a network pass under its
# ceiling: crowded axis labels and a ceiling label on the bars, on both widths
jq '[[4096, 30.2], [16384, 80.4], [65536, 150.1], [131072, 170.3], [524288, 180.9],
	 [1048576, 182.4], [4194304, 190.5]] as $pts |
	.runs[0].metrics = [.runs[0].metrics[] | select(.name | startswith("seq-") | not)] |
	.runs[0].metrics += [$pts[] | . as [$b, $v] | ("seq-read", "seq-write") |
	{device_key: "2-1", test: "disk", metric: "mb_s", unit: "MB/s", repeats: 1,
	 higher_is_better: true, value: (if . == "seq-read" then $v else $v / 3 end),
	 name: "\(.) \(if $b >= 1048576 then "\($b / 1048576)M" else "\($b / 1024)K" end)"}] +
	[{device_key: "2-1", test: "net", name: "tcp send", metric: "mbit_s", value: 941.5,
	  unit: "Mbit/s", repeats: 1, higher_is_better: true}]' "$FIXTURES/runs-a.json" >"$WORK/full.json"
expect_status 0 "report of a full sweep" "$USBPERF" report "$WORK/full.json" --html "$WORK/full.html"
for w in 1000 390; do
	probe "$WORK/full.html" $w "$WORK/pfull-$w.json"
	visuals "$WORK/pfull-$w.json" "a full sweep, $w px"
	jq_check "$WORK/pfull-$w.json" '.lines == [7, 7] and .impossible == 0 and .log == 0' \
		"$w px: a full sweep's seven sizes joined each way, on a linear axis (6x span)"
done

# the uncertain verdict of a host run says what to run next, at a glance (29.2.11)
probe "$WORK/real.html" 390 "$WORK/preal-phone.json"
jq_check "$WORK/preal-phone.json" '(.next | length) >= 1 and all(.next[]; startswith("next: "))' \
	"real run: the uncertain verdicts say what to run next"
jq_check "$WORK/preal-phone.json" '.glancedash == 0 and .overflow == false' \
	"real run at 390 px: no '-' at a glance for a measured host, nothing sideways"

# ---- artefacts: what a person would look at (390 and 1366 px: issue 29.2.10) ----
browse 1000 --screenshot="$ARTEFACTS/report-desktop.png" --window-size=1000,2600 "file://$H" >/dev/null
browse 1366 --screenshot="$ARTEFACTS/report-1366.png" --window-size=1366,3000 "file://$H" >/dev/null
frame "$H" 375
browse 500 --screenshot="$ARTEFACTS/report-phone.png" --window-size=500,2600 "file://$WORK/frame.html" >/dev/null
frame "$H" 390
browse 500 --screenshot="$ARTEFACTS/report-390.png" --window-size=500,3000 "file://$WORK/frame.html" >/dev/null
browse 1000 --print-to-pdf="$ARTEFACTS/report.pdf" --no-pdf-header-footer "file://$H" >/dev/null
cp "$H" "$ARTEFACTS/report.html"
check "desktop screenshot kept" sh -c "head -c 8 '$ARTEFACTS/report-desktop.png' | grep -q PNG"
check "phone screenshot kept" sh -c "head -c 8 '$ARTEFACTS/report-phone.png' | grep -q PNG"
check "390 and 1366 px screenshots kept" sh -c "head -c 8 '$ARTEFACTS/report-390.png' | grep -q PNG &&
	head -c 8 '$ARTEFACTS/report-1366.png' | grep -q PNG"
check "printed to PDF" sh -c "head -c 5 '$ARTEFACTS/report.pdf' | grep -q '%PDF-'"
echo "artefacts: $ARTEFACTS"
finish
