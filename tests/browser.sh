# A real browser for the tests of the HTML pages (sourced by
# tests/piglit_workflow.test.sh and tests/report_html.test.sh): Debian's
# chromium, headless, each run with its own temporary profile
# (--user-data-dir) under $1 of browser_init and bounded by BROWSER_LIMIT
# seconds; whatever it leaves running is killed by process id (the
# processes whose command line names that profile).  A browser that does
# not start is a failure, with the reason, never a skip.
#
#   browser_init DIR          where the profiles go; false if there is no
#                             chromium (BROWSER says which)
#   browser_dom FILE OUT      the rendered DOM of FILE (--dump-dom)
#   browser_shot FILE OUT.png a 1200x900 screenshot of FILE
# Both return false, with the browser's last lines in $BROWSER_WHY.

BROWSER=${BROWSER:-chromium}
BROWSER_LIMIT=${BROWSER_LIMIT:-60}

browser_init() {
    BROWSER_DIR=$1
    BROWSER_RUNS=0
    BROWSER_WHY=
    if ! command -v "$BROWSER" > /dev/null 2>&1; then
        BROWSER_WHY="$BROWSER is not installed (Debian: chromium; make deps)"
        return 1
    fi
}

# The processes still running with profile $1, killed by their ids.
browser_reap() {
    for pid in $(pgrep -f -- "--user-data-dir=$1" 2> /dev/null); do
        kill -KILL "$pid" 2> /dev/null
    done
}

# browser_run FILE OUT MODE ARGS...: MODE dom writes the DOM to OUT
browser_run() {
    file=$1 out=$2 mode=$3
    shift 3
    BROWSER_RUNS=$((BROWSER_RUNS + 1))
    profile="$BROWSER_DIR/profile$BROWSER_RUNS"
    log="$BROWSER_DIR/log$BROWSER_RUNS"
    mkdir -p "$profile"
    case $file in /*) url="file://$file" ;; *) url="file://$(pwd)/$file" ;; esac
    if [ "$mode" = dom ]; then
        timeout -k 5 "$BROWSER_LIMIT" "$BROWSER" --headless --no-sandbox \
            --disable-gpu --user-data-dir="$profile" "$@" "$url" \
            > "$out" 2> "$log"
    else
        timeout -k 5 "$BROWSER_LIMIT" "$BROWSER" --headless --no-sandbox \
            --disable-gpu --user-data-dir="$profile" "$@" "$url" \
            > "$log" 2>&1
    fi
    rc=$?
    browser_reap "$profile"
    BROWSER_WHY=
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
        BROWSER_WHY="$BROWSER did not finish within $BROWSER_LIMIT s: $(grep -v dbus "$log" | tail -n 3)"
    elif [ $rc -ne 0 ]; then
        BROWSER_WHY="$BROWSER exited $rc: $(grep -v dbus "$log" | tail -n 3)"
    elif [ ! -s "$out" ]; then
        BROWSER_WHY="$BROWSER wrote no output: $(grep -v dbus "$log" | tail -n 3)"
    fi
    [ -z "$BROWSER_WHY" ]
}

browser_dom() {
    browser_run "$1" "$2" dom --dump-dom
}

browser_shot() {
    browser_run "$1" "$2" shot --screenshot="$2" --window-size=1200,900 \
        --hide-scrollbars
}
