// SPDX-License-Identifier: GPL-2.0
/*
 * plugin_teeprobe_tee_draw.cpp - the boxes of plugin_teeprobe_tee.c's TEE
 * calls: KernelShark hands its plugins the graph to draw on as C++ objects
 * (KsPlugins.hpp), so this part is C++.
 *
 * A call is a hollow magenta box on its task's graph and on the CPU graphs
 * where it began and ended, from its start's bin to its exit's, in the
 * lower half of the graph. A side is left open where the call goes on
 * beyond the shown range (or beyond the trace). Calls closer than a bin
 * apart at the current zoom make one box (zoom in to tell them apart); a
 * box is at least 3 bins wide.
 */
#include <new>

#include "plugin_teeprobe_tee.h"
#include "KsPlotTools.hpp"
#include "KsPlugins.hpp"

namespace {

/* A box from bin a to bin b of a graph, open on the sides not closed */
class TeeBox : public KsPlot::PlotObject {
public:
	TeeBox(const KsPlot::Point &a, const KsPlot::Point &b, int height,
	       bool left, bool right)
	: _a(a.x(), a.y()), _b(b.x(), b.y()), _height(height),
	  _left(left), _right(right) {}

private:
	KsPlot::Point	_a, _b;
	int		_height;
	bool		_left, _right;

	void _draw(const KsPlot::Color &col, float size) const override
	{
		KsPlot::Point a0(_a.x(), _a.y() - 2);
		KsPlot::Point a1(_a.x(), _a.y() - _height);
		KsPlot::Point b0(_b.x(), _b.y() - 2);
		KsPlot::Point b1(_b.x(), _b.y() - _height);

		KsPlot::drawLine(a0, b0, col, size);
		KsPlot::drawLine(a1, b1, col, size);
		if (_left)
			KsPlot::drawLine(a0, a1, col, size);
		if (_right)
			KsPlot::drawLine(b0, b1, col, size);
	}
};

struct Span {
	int	a, b;
	bool	left, right;
};

void pushBox(KsCppArgV *argv, const Span &s)
{
	KsPlot::Graph *g = argv->_graph;
	TeeBox *box = new (std::nothrow) TeeBox(g->bin(s.a)._base,
						g->bin(s.b)._base,
						g->height() / 2,
						s.left, s.right);
	if (!box)
		return;
	box->_color = KsPlot::Color(TEE_BOX_RED, TEE_BOX_GREEN, TEE_BOX_BLUE);
	box->_size = 2;
	argv->_shapes->push_front(box);
}

} /* namespace */

/**
 * plugin_tee_draw - KernelShark's draw handler: the boxes of stream @sd's
 * calls of task @val (KSHARK_TASK_DRAW) or on CPU @val (KSHARK_CPU_DRAW).
 */
__hidden void plugin_tee_draw(struct kshark_cpp_argv *argv_c, int sd, int val,
			      int draw_action)
{
	KsCppArgV *argv = KS_ARGV_TO_CPP(argv_c);
	struct plugin_tee_context *ctx = __get_context(sd);
	kshark_trace_histo *histo;
	bool task, have = false;
	Span cur = {};
	int nbins;

	if (!ctx || !argv || !argv->_graph || !argv->_shapes || !argv->_histo)
		return;
	if (!(draw_action & (KSHARK_TASK_DRAW | KSHARK_CPU_DRAW)))
		return;
	task = draw_action & KSHARK_TASK_DRAW;
	histo = argv->_histo;

	plugin_tee_update(ctx, sd, histo);

	nbins = argv->_graph->size();
	if (nbins <= 0 || histo->bin_size <= 0 || histo->max < histo->min)
		return;

	try {
		for (size_t i = 0; i < ctx->n_calls; i++) {
			const struct tee_call *c = &ctx->calls[i];
			Span s;

			if (task ? c->pid != val :
			    c->cpu_enter != val && c->cpu_exit != val)
				continue;
			if (c->end < histo->min || c->start > histo->max)
				continue;

			s.left = !(c->flags & TEE_CALL_OPEN_START) &&
				 c->start >= histo->min;
			s.right = !(c->flags & TEE_CALL_OPEN_END) &&
				  c->end <= histo->max;
			s.a = s.left ? (c->start - histo->min) / histo->bin_size : 0;
			s.b = s.right ? (c->end - histo->min) / histo->bin_size :
					nbins - 1;
			if (s.a >= nbins)
				s.a = nbins - 1;
			if (s.b >= nbins)
				s.b = nbins - 1;
			if (s.b < s.a + 2 && s.right)
				s.b = s.a + 2 < nbins ? s.a + 2 : nbins - 1;

			/* the calls are by start: merge those that touch */
			if (have && s.a <= cur.b + 1) {
				if (s.b > cur.b) {
					cur.b = s.b;
					cur.right = s.right;
				} else if (s.b == cur.b) {
					cur.right = cur.right && s.right;
				}
				continue;
			}
			if (have)
				pushBox(argv, cur);
			cur = s;
			have = true;
		}
		if (have)
			pushBox(argv, cur);
	} catch (...) {
		/* never let an exception into KernelShark */
	}
}
