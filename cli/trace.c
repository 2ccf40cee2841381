/* `--trace FILE`: pipeline events as Chrome trace-event JSON (cli/trace.h,
 * docs/TRACE.md). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/trace.h"
#include "suite/provenance.h"

void cli_trace_args_init(struct cli_trace_args *t)
{
    memset(t, 0, sizeof *t);
    t->to = CLI_TRACE_WINDOW;
    t->max_events = CLI_TRACE_MAX_EVENTS;
}

/* A decimal count without sign; false on anything else. */
static bool parse_u64(const char *s, const char *end, uint64_t *v)
{
    if (s == end || *s < '0' || *s > '9')
        return false;
    char *e;
    errno = 0;
    unsigned long long n = strtoull(s, &e, 10);
    if (errno || e != end)
        return false;
    *v = n;
    return true;
}

bool cli_trace_option(const char *cmd, const char *opt, const char *v,
                      struct cli_trace_args *t, int *rc)
{
    *rc = 0;
    if (!strcmp(opt, "--trace")) {
        if (!*v) {
            cli_error(NULL, 0, 0, "%s: --trace needs a FILE", cmd);
            *rc = 2;
        }
        t->path = v;
        return true;
    }
    if (!strcmp(opt, "--trace-window")) {
        const char *colon = strchr(v, ':');
        t->window_arg = v;
        if (!colon || !parse_u64(v, colon, &t->from) ||
            !parse_u64(colon + 1, colon + strlen(colon), &t->to) ||
            t->from >= t->to) {
            cli_error(NULL, 0, 0, "%s: --trace-window wants FROM:TO, cycles "
                      "with FROM < TO, not '%s'", cmd, v);
            *rc = 2;
        }
        return true;
    }
    if (!strcmp(opt, "--trace-max-events")) {
        t->max_arg = v;
        if (!parse_u64(v, v + strlen(v), &t->max_events) ||
            t->max_events < 1 || t->max_events > CLI_TRACE_EVENTS_LIMIT) {
            cli_error(NULL, 0, 0, "%s: --trace-max-events wants 1..%d, not "
                      "'%s'", cmd, CLI_TRACE_EVENTS_LIMIT, v);
            *rc = 2;
        }
        return true;
    }
    return false;
}

int cli_trace_check(const char *cmd, const struct cli_trace_args *t)
{
    const char *lone = t->path ? NULL : t->window_arg ? "--trace-window"
                     : t->max_arg ? "--trace-max-events" : NULL;
    if (!lone)
        return 0;
    cli_error(NULL, 0, 0, "%s: %s applies to --trace FILE", cmd, lone);
    return 2;
}

/* ---- The writer --------------------------------------------------------- */

/* Which (processor, slot) tracks have been named (their "M" events). */
struct proc_seen {
    bool named;                /* the processor's own track            */
    unsigned char *slot;       /* slot + 1 (0: the stall track) named  */
    unsigned n;
};

struct cli_trace {
    struct cli_out out;
    uint64_t from, to, max;
    uint64_t events, dropped, first_dropped, outside;
    bool sep;                  /* an event written: the next needs ","  */
    bool oom;                  /* a track could not be recorded         */
    const char *model, *proc_noun, *slot_noun;
    struct proc_seen *procs;
    unsigned nprocs;
};

static void put_sep(struct cli_trace *tr)
{
    fputs(tr->sep ? ",\n" : "\n", tr->out.f);
    tr->sep = true;
}

/* The metadata events naming a track: KIND_name (`label`) and
 * KIND_sort_index, KIND "process" or "thread". */
static void meta(struct cli_trace *tr, const char *kind, unsigned pid,
                 unsigned tid, const char *label, unsigned sort)
{
    FILE *f = tr->out.f;
    put_sep(tr);
    fprintf(f, "{\"name\": \"%s_name\", \"ph\": \"M\", \"ts\": 0, "
            "\"pid\": %u, \"tid\": %u, \"args\": {\"name\": ", kind, pid, tid);
    cli_json_string(f, label);
    fprintf(f, "}},\n{\"name\": \"%s_sort_index\", \"ph\": \"M\", "
            "\"ts\": 0, \"pid\": %u, \"tid\": %u, \"args\": "
            "{\"sort_index\": %u}}", kind, pid, tid, sort);
}

/* Name the track of processor p (its stall row: tid 0) or of its slot
 * (tid slot + 1) the first time an event goes there; false when out of
 * memory (the event is then written without its name). */
static bool name_track(struct cli_trace *tr, unsigned p, unsigned tid)
{
    if (p >= tr->nprocs) {
        unsigned n = p + 1 > 2 * tr->nprocs ? p + 1 : 2 * tr->nprocs;
        struct proc_seen *v = realloc(tr->procs, n * sizeof *v);
        if (!v)
            return false;
        memset(v + tr->nprocs, 0, (n - tr->nprocs) * sizeof *v);
        tr->procs = v;
        tr->nprocs = n;
    }
    struct proc_seen *ps = &tr->procs[p];
    char label[64];
    if (!ps->named) {
        ps->named = true;
        snprintf(label, sizeof label, "%s %s %u", tr->model, tr->proc_noun,
                 p);
        meta(tr, "process", p, 0, label, p);
    }
    if (tid >= ps->n) {
        unsigned n = tid + 1 > 2 * ps->n ? tid + 1 : 2 * ps->n;
        unsigned char *v = realloc(ps->slot, n);
        if (!v)
            return false;
        memset(v + ps->n, 0, n - ps->n);
        ps->slot = v;
        ps->n = n;
    }
    if (ps->slot[tid])
        return true;
    ps->slot[tid] = 1;
    if (tid)
        snprintf(label, sizeof label, "%s %u", tr->slot_noun, tid - 1);
    else
        snprintf(label, sizeof label, "stalls");
    meta(tr, "thread", p, tid, label, tid);
    return true;
}

static void on_event(void *ctx, const struct us_event *ev)
{
    struct cli_trace *tr = ctx;
    if (ev->cycle < tr->from || ev->cycle >= tr->to) {
        tr->outside++;
        return;
    }
    if (tr->events == tr->max) {
        if (!tr->dropped++)
            tr->first_dropped = ev->cycle;
        return;
    }
    unsigned tid = ev->kind == US_EVENT_STALL ? 0 : ev->slot + 1;
    if (!name_track(tr, ev->proc, tid))
        tr->oom = true;
    tr->events++;
    put_sep(tr);
    FILE *f = tr->out.f;
    switch (ev->kind) {
    case US_EVENT_ISSUE:
        fputs("{\"name\": ", f);
        cli_json_string(f, ev->name);
        fprintf(f, ", \"cat\": \"issue\", \"ph\": \"X\", \"ts\": %" PRIu64
                ", \"dur\": %" PRIu64 ", \"pid\": %u, \"tid\": %u, \"args\": "
                "{\"slot\": %u, \"thread\": %u, \"pc\": %u, \"lanes\": %u, "
                "\"retire\": %" PRIu64 "}}", ev->cycle,
                ev->done > ev->cycle ? ev->done - ev->cycle : 1, ev->proc, tid,
                ev->slot, ev->thread, ev->pc, ev->lanes, ev->done);
        break;
    case US_EVENT_STALL:
        fputs("{\"name\": ", f);
        cli_json_string(f, ev->name);
        fprintf(f, ", \"cat\": \"stall\", \"ph\": \"i\", \"s\": \"t\", "
                "\"ts\": %" PRIu64 ", \"pid\": %u, \"tid\": 0, \"args\": "
                "{\"reason\": ", ev->cycle, ev->proc);
        cli_json_string(f, ev->name);
        fputs("}}", f);
        break;
    case US_EVENT_RETIRE:
        fprintf(f, "{\"name\": \"retire\", \"cat\": \"retire\", \"ph\": \"i\", "
                "\"s\": \"t\", \"ts\": %" PRIu64 ", \"pid\": %u, \"tid\": %u, "
                "\"args\": {\"slot\": %u, \"thread\": %u}}", ev->cycle,
                ev->proc, tid, ev->slot, ev->thread);
        break;
    }
}

struct cli_trace *cli_trace_open(const struct cli_trace_args *t,
                                 const char *model, struct us_event_sink *sink)
{
    struct cli_trace *tr = calloc(1, sizeof *tr);
    if (!tr) {
        cli_error(t->path, 0, 0, "out of memory");
        return NULL;
    }
    if (!cli_out_open(&tr->out, t->path)) {
        free(tr);
        return NULL;
    }
    tr->from = t->from;
    tr->to = t->to;
    tr->max = t->max_events;
    tr->model = model;
    /* what the models call their processors and slots (docs/SIMT.md) */
    bool simt = !strcmp(model, "simt");
    tr->proc_noun = simt ? "core" : !strcmp(model, "scalar") ? "SP"
                  : "processor";
    tr->slot_noun = simt ? "warp" : "slot";
    fputs("{\"traceEvents\": [", tr->out.f);
    sink->event = on_event;
    sink->ctx = tr;
    return tr;
}

json_t *cli_trace_doc(int argc, char **argv, const char *const *inputs,
                      size_t n, const char *math, const struct us_config *cfg)
{
    struct us_prov *p = calloc(1, sizeof *p);
    json_t *doc = json_object(), *pj = NULL;
    if (p && doc && us_prov_init(p, argc, argv)) {
        p->math = math;
        p->cfg = cfg;
        for (size_t i = 0; i < n; i++)
            us_prov_add_file(p, inputs[i]);
        pj = us_prov_json(p);
        us_prov_free(p);
    }
    free(p);
    if (!pj) {
        json_decref(doc);
        return NULL;
    }
    json_object_set_new(doc, "schema_version",
                        json_integer(US_JSON_SCHEMA_VERSION));
    json_object_set_new(doc, "provenance", pj);
    return doc;
}

/* otherData: the run's document and what the trace holds. */
static char *other_data(const struct cli_trace *tr, json_t *doc,
                        double cycles)
{
    json_t *w = json_object();
    bool ok = doc && w &&
        !json_object_set_new(doc, "model", json_string(tr->model)) &&
        !json_object_set_new(doc, "time_unit", json_string("cycle")) &&
        !json_object_set_new(w, "from", json_integer((json_int_t)tr->from)) &&
        !json_object_set_new(w, "to", json_integer((json_int_t)tr->to)) &&
        !json_object_set(doc, "window", w) &&
        !json_object_set_new(doc, "cycles", json_integer((json_int_t)cycles)) &&
        !json_object_set_new(doc, "events",
                             json_integer((json_int_t)tr->events)) &&
        !json_object_set_new(doc, "events_outside_window",
                             json_integer((json_int_t)tr->outside)) &&
        !json_object_set_new(doc, "max_events",
                             json_integer((json_int_t)tr->max)) &&
        !json_object_set_new(doc, "dropped_events",
                             json_integer((json_int_t)tr->dropped)) &&
        !json_object_set_new(doc, "truncated", json_boolean(tr->dropped));
    char *s = ok ? json_dumps(doc, US_JSON_FLAGS) : NULL;
    json_decref(w);
    json_decref(doc);
    return s;
}

bool cli_trace_close(struct cli_trace *tr, bool ok, json_t *doc,
                     double cycles)
{
    if (!tr) {
        json_decref(doc);
        return ok;
    }
    FILE *f = tr->out.f;
    char *other = NULL;
    if (ok && !tr->oom)
        other = other_data(tr, doc, cycles);
    else
        json_decref(doc);
    if (ok && !other) {
        cli_error(tr->out.shown, 0, 0, "out of memory");
        ok = false;
    }
    if (ok && tr->dropped) {   /* where the file stops, on the timeline */
        put_sep(tr);
        fprintf(f, "{\"name\": \"trace truncated\", \"cat\": \"trace\", "
                "\"ph\": \"i\", \"s\": \"g\", \"ts\": %" PRIu64 ", \"pid\": 0, "
                "\"tid\": 0, \"args\": {\"max_events\": %" PRIu64 ", "
                "\"dropped_events\": %" PRIu64 "}}", tr->first_dropped,
                tr->max, tr->dropped);
    }
    if (ok)
        fprintf(f, "\n],\n\"displayTimeUnit\": \"ms\",\n\"otherData\": %s}\n",
                other);
    free(other);
    ok = cli_out_close(&tr->out, ok);
    for (unsigned p = 0; p < tr->nprocs; p++)
        free(tr->procs[p].slot);
    free(tr->procs);
    free(tr);
    return ok;
}
