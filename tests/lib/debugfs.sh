# SPDX-License-Identifier: GPL-2.0
# debugfs.sh - teeprobe's debugfs tables read by their columns' names
# (sourced by tests/integration/lib.sh and bench/guest.sh): no test or
# benchmark reads a column by its position.
#
# A table file (Documentation/debugfs.rst) has one or more "#" lines before
# its first row, the last of them the header: "#" and the columns' names
# ("# cpu cmd calls ...", tee_probes' "# preset tee" comes before it); a
# file without rows has its header as its widest "#" line. After the rows
# come "# key value" lines ("# window_ms 100"), and the table ends at the
# first of them (an older tcp_stats had the phases' table after its own).
# memory has "key value" lines and no header.
#
# FILE is a file's name under $DEBUGFS ("tee_stats"), or a path when it
# holds a "/" (a copy of one). COLUMN names a column, or several joined by
# commas ("symbol,state"). KEY... select the rows: a row's first fields
# must match them in turn, each an extended regular expression matched
# whole: "all", "INVOKE", "[0-9]+" (each CPU), "teesim_.*", or
# "tc_ns_smc(\..*)?" (a symbol with its clones' ".constprop.0" and the
# like). A column the header does not name is an error: a message on
# stderr naming the file and the column, status 2, never a value a check
# could take for one.

# tp_table MODE FILE COLUMN [KEY...] - tp_col (MODE col) and tp_sum (MODE
# sum) both: one awk over one read of FILE
tp_table() {
	local mode=$1 file=$2
	shift 2
	case $file in */*) ;; *) file=$DEBUGFS/$file ;; esac
	# COLUMN and the KEYs as arguments, not -v: awk would take the
	# backslashes of a KEY's regular expression as its own escapes
	awk -v mode="$mode" '
	BEGIN {
		file = ARGV[ARGC - 1]
		ncol = split(ARGV[1], want, ",")
		nkey = ARGC - 3
		for (i = 1; i <= nkey; i++)
			key[i] = "^(" ARGV[i + 1] ")$"
		for (i = 1; i < ARGC - 1; i++)
			ARGV[i] = ""
		if (!ncol) {
			printf "%s: no column named\n", file >"/dev/stderr"
			failed = 1
			exit 2
		}
	}
	# columns(HEADER) - where each wanted column is (at[]); a message and
	# 0 when the header does not name one
	function columns(h,    f, n, i, j) {
		n = split(h, f, " ")
		if (f[1] != "#") {
			printf "%s: no header line (a \"# ...\" line before the rows)\n", file >"/dev/stderr"
			failed = 1
			return 0
		}
		for (j = 1; j <= ncol; j++) {
			at[j] = 0
			for (i = 2; i <= n; i++)
				if (f[i] == want[j])
					at[j] = i - 1
			if (!at[j]) {
				printf "%s: no column %s (header: %s)\n", file, want[j], h >"/dev/stderr"
				failed = 1
				return 0
			}
		}
		return 1
	}
	/^#/ {
		if (!rows) {
			head = $0
			if (NF > widest) {
				widest = NF
				wide = $0
			}
		} else {
			over = 1
		}
		next
	}
	# the table ends at the first "#" line after its rows
	over { next }
	{
		if (!rows++ && !columns(head))
			exit 2
		for (i = 1; i <= nkey; i++)
			if ($i !~ key[i])
				next
		if (mode == "sum") {
			for (j = 1; j <= ncol; j++)
				sum += $(at[j])
			next
		}
		line = $(at[1])
		for (j = 2; j <= ncol; j++)
			line = line " " $(at[j])
		print line
	}
	END {
		if (failed || (!rows && !columns(wide)))
			exit 2
		if (mode == "sum")
			printf "%.0f\n", sum
	}' "$@" "$file"
}

# tp_col FILE COLUMN [KEY...] - COLUMN of each row of FILE that the KEYs
# select, a line each (several columns: their values space-separated)
tp_col() { tp_table col "$@"; }

# tp_sum FILE COLUMN [KEY...] - COLUMN summed over the rows of FILE that
# the KEYs select (several columns: all of them), 0 when no row is selected
tp_sum() { tp_table sum "$@"; }

# tp_key FILE NAME - the value of FILE's "# NAME VALUE" line (memory's
# "NAME VALUE"); nothing, status 1, when it has none
tp_key() {
	local file=$1
	case $file in */*) ;; *) file=$DEBUGFS/$file ;; esac
	awk -v k="$2" '
	$1 == "#" && $2 == k && NF == 3 { v[++n] = $3 }
	/^#/ { table = 1; next }
	$1 == k && NF == 2 { p[++m] = $2 }
	END {
		if (!table) {
			n = m
			for (i = 1; i <= m; i++)
				v[i] = p[i]
		}
		for (i = 1; i <= n; i++)
			print v[i]
		exit !n
	}' "$file"
}

# checks run their commands in a new shell (tests/integration/lib.sh's
# run_step), and "bash -c" strings read through these too
export -f tp_table tp_col tp_sum tp_key
