# SPDX-License-Identifier: GPL-2.0
# queue.sh - a queue of jobs that workers take, longest first (sourced by
# tests/run): the guests share the host's cores, a worker each, and a job is
# queued as soon as what it needs is built. $queue is the queue's file;
# each job's start and end, in seconds since $started, go to
# $queue.timeline.

# queue_init FILE - an empty, open queue in FILE
queue_init() {
	queue=$1
	rm -f "$queue" "$queue.closed" "$queue.lock" "$queue.timeline"
	: >"$queue"
}

# queue_add JOB... - append jobs (a job is one line: its words)
queue_add() {
	flock "$queue.lock" sh -c 'q=$1; shift; printf "%s\n" "$@" >>"$q"' sh "$queue" "$@"
}

# queue_push JOB - put a job at the queue's head: the next a worker takes
queue_push() {
	flock "$queue.lock" sh -c 'q=$1; { printf "%s\n" "$2"; cat "$q"; } >"$q.new" && mv "$q.new" "$q"' sh "$queue" "$1"
}

# queue_take - print the next job and remove it (nothing: the queue is empty)
queue_take() {
	flock "$queue.lock" sh -c '[ -f "$1" ] || exit 0; head -n 1 "$1"; sed -i 1d "$1"' sh "$queue"
}

# queue_close - nothing more will be added: workers end when it is empty
queue_close() { touch "$queue.closed"; }

# queue_worker RUN [JOB] - run JOB, then the queue's jobs, each as "RUN
# JOB's words", until the queue is closed and empty
queue_worker() {
	local run=$1 job closed
	shift
	[ $# = 0 ] || queue_run "$run" "$@"
	while :; do
		closed=0
		[ -f "$queue.closed" ] && closed=1
		job=$(queue_take)
		if [ -n "$job" ]; then
			queue_run "$run" $job
		elif [ "$closed" = 1 ]; then
			return
		else
			sleep 2
		fi
	done
}

# queue_run RUN JOB... - one job, its times into the timeline
queue_run() {
	local run=$1 t0=$(date +%s)
	shift
	"$run" "$@"
	echo "$1 $((t0 - started)) $(($(date +%s) - started))" >>"$queue.timeline"
}

# queue_timeline - where each job ran, as TAP comments
queue_timeline() {
	sort -n -k2 "$queue.timeline" 2>/dev/null |
		awk '{ printf "# %-12s from %5d s to %5d s (%d s)\n", $1, $2, $3, $3 - $2 }'
}
