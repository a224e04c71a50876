/*
 * runtime/data/memcopy.c - host copies of many bytes, on several threads.
 *
 * The bytes of a copy are cut into as many equal spans as there are
 * threads; each thread copies the parts of rows that fall into its span.
 * Workers wait on a condition variable for the next copy; the runtime lock
 * is held by the one caller, so there is one copy at a time.
 */
#include "data/memcopy.h"

#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "core/limits.h"
#include "core/lock.h"

/* A thread is worth starting for this many bytes at least. */
#define MIN_SPAN (512 * 1024)

static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t start = PTHREAD_COND_INITIALIZER;    /* generation changed, or quit */
static pthread_cond_t finished = PTHREAD_COND_INITIALIZER; /* done grew */
static pthread_t workers[LIMIT_COPY_THREADS - 1];
static int nworkers; /* started */
static int tried;    /* workers were started (or could not be) */
static uint64_t generation;
static uint64_t start_generation; /* generation when the workers started */
static int quit;
static const mcp_rows *job;
static int spans; /* the job's spans: the caller's is 0, worker i's is i + 1 */
static int done;  /* workers finished with this generation */

/* Copy the bytes [begin, end) of the job, counted row after row. */
static void copy_span(const mcp_rows *j, int64_t begin, int64_t end)
{
    if (j->width <= 0)
        return;
    int64_t row = begin / j->width, at = begin % j->width;
    while (begin < end) {
        int64_t n = j->width - at < end - begin ? j->width - at : end - begin;
        int64_t s = row / j->rows[1], r = row % j->rows[1];
        memcpy(j->dst + s * j->dst_pitch[0] + r * j->dst_pitch[1] + at,
               j->src + s * j->src_pitch[0] + r * j->src_pitch[1] + at, (size_t)n);
        begin += n;
        row++;
        at = 0;
    }
}

static void copy_part(const mcp_rows *j, int part, int parts)
{
    int64_t total = j->rows[0] * j->rows[1] * j->width;
    copy_span(j, total / parts * part, part + 1 == parts ? total : total / parts * (part + 1));
}

static void *work(void *arg)
{
    int index = (int)(intptr_t)arg;
    pthread_mutex_lock(&mutex);
    /* Not generation: a copy may have started before this thread ran. */
    uint64_t seen = start_generation;
    for (;;) {
        while (generation == seen && !quit)
            pthread_cond_wait(&start, &mutex);
        if (quit)
            break;
        seen = generation;
        const mcp_rows *j = job;
        int parts = spans;
        pthread_mutex_unlock(&mutex);
        if (index + 1 < parts)
            copy_part(j, index + 1, parts);
        pthread_mutex_lock(&mutex);
        done++;
        pthread_cond_signal(&finished);
    }
    pthread_mutex_unlock(&mutex);
    return NULL;
}

/* A child of fork() has none of the workers: it starts its own when it
 * copies (a copy would otherwise wait for threads that do not exist). */
static void forget_workers_in_child(void)
{
    pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t c = PTHREAD_COND_INITIALIZER;
    mutex = m;
    start = c;
    finished = c;
    nworkers = 0;
    tried = 0;
    quit = 0;
    job = NULL;
    done = 0;
}

static void watch_fork(void)
{
    pthread_atfork(NULL, NULL, forget_workers_in_child);
}

/* Start the workers once. Signals stay with the program's own threads. */
static void start_workers(void)
{
    static pthread_once_t fork_watched = PTHREAD_ONCE_INIT;
    pthread_once(&fork_watched, watch_fork);
    tried = 1;
    pthread_mutex_lock(&mutex);
    start_generation = generation;
    pthread_mutex_unlock(&mutex);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int want = cpus > LIMIT_COPY_THREADS ? LIMIT_COPY_THREADS : cpus > 1 ? (int)cpus : 1;
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    while (nworkers < want - 1 &&
           pthread_create(&workers[nworkers], NULL, work, (void *)(intptr_t)nworkers) == 0)
        nworkers++;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

int amp__mcp_threads(void)
{
    if (!tried)
        start_workers();
    return nworkers + 1;
}

void amp__mcp_copy(const mcp_rows *j)
{
    LOCK_ASSERT_HELD();
    int64_t total = j->rows[0] * j->rows[1] * j->width;
    int parts = (int)(total / MIN_SPAN);
    if (parts > 1 && parts > amp__mcp_threads())
        parts = amp__mcp_threads();
    if (parts <= 1) {
        copy_span(j, 0, total);
        return;
    }
    pthread_mutex_lock(&mutex);
    job = j;
    spans = parts;
    done = 0;
    generation++;
    pthread_cond_broadcast(&start);
    pthread_mutex_unlock(&mutex);
    copy_part(j, 0, parts);
    pthread_mutex_lock(&mutex);
    while (done < nworkers)
        pthread_cond_wait(&finished, &mutex);
    job = NULL;
    pthread_mutex_unlock(&mutex);
}

void amp__mcp_shutdown(void)
{
    pthread_mutex_lock(&mutex);
    quit = 1;
    pthread_cond_broadcast(&start);
    pthread_mutex_unlock(&mutex);
    for (int i = 0; i < nworkers; i++)
        pthread_join(workers[i], NULL);
    pthread_mutex_lock(&mutex);
    nworkers = 0;
    tried = 0;
    quit = 0;
    pthread_mutex_unlock(&mutex);
}
