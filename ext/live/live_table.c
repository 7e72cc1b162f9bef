/*
** live_table.c: the bloom virtual table, a live filter (rule 26 (live
** table)). Its filters live in live_store; this file is the module: its
** arguments, its columns and its plans, and the kinds' operations through
** each filter's filter_io.
**
** CREATE VIRTUAL TABLE t USING bloom(kind = K, n = N, p = P) (or, for a kind
** that takes others, such as a sketch, its own: the table_arguments of its SQL
** side; or no arguments, for filters loaded from BLOBs alone) declares
**
**     CREATE TABLE t(name TEXT, key BLOB HIDDEN, filter BLOB HIDDEN,
**                    count INTEGER HIDDEN)
**
** 1. A row of t is a filter, by its name (NULL: the unnamed filter, which a
**    table with one filter needs no name for); with key = V (or key IS V) in
**    the query, a row is a filter that might hold V, which is then its key
**    column.
** 2. INSERT with a key adds it to the filter of that name, made from the
**    table's arguments the first time; with a filter (a BLOB of a kind that
**    probes in place) loads it as a new filter; with neither, makes sure the
**    filter exists. A NULL key adds nothing. count adds that many to the key
**    of a kind that counts its keys (FILTER_COUNTS: a sketch).
** 3. DELETE of a row found by key removes the key from that filter (kinds that
**    remove; an error naming the kind otherwise); of a row found without key
**    drops the whole filter. UPDATE is refused.
** 4. filter is the whole filter as a BLOB (its snapshot); count the estimate
**    for the key of a kind that counts its keys. A query that reads key without key = V is refused:
**    a filter cannot list its keys; so is key = V with a collation other than
**    BINARY, which a filter of the keys' bytes cannot apply.
** 5. PRAGMA integrity_check (SQLite 3.44 and later: xIntegrity) reports the
**    first problem of the shadow rows; quick_check all but a filter's body.
*/
#include "sql_api.h"

#include "live_table.h"

#include "filter_kinds.h"
#include "live_changes.h"
#include "live_arguments.h"
#include "live_chunks.h"
#include "live_store.h"
#include "sql_args.h"
#include "sql_error.h"
#include "sql_key.h"
#include "sql_kind.h"
#include "sql_kind_table.h"
#include "sql_memory.h"

#include <stdlib.h>
#include <string.h>

/* The declaration of the table's columns (live_module.h's order), the last named as the table
** (%w). */
static const char live_declaration[] = "CREATE TABLE x(name TEXT, key BLOB HIDDEN, filter BLOB "
                                       "HIDDEN, count INTEGER HIDDEN, \"%w\" HIDDEN)";

/* Frees a cursor. */
static void live_cursor_free(live_cursor *c) {
    if (c != NULL) {
        sql_kept_key_free(&c->key);
        live_candidates_free(&c->candidates);
        sqlite3_free(c);
    }
}

/* ---- Creating and connecting ---- */

/* Frees a table and its store. */
static void live_table_free(live_table *t) {
    if (t != NULL) {
        live_store_close(t->store);
        live_cursor_free(t->spare);
        sqlite3_free(t->tokens);
        sqlite3_free(t->name);
        sqlite3_free(t->base.zErrMsg); /* (one SQLite did not take: an error of xRelease) */
        sqlite3_free(t);
    }
}

/* xCreate and xConnect: the table's store opened, its shadow tables first made for create. */
static int live_open(sqlite3 *db, int argc, const char *const *argv, sqlite3_vtab **out,
                     char **error, int create) {
    live_table *t = sqlite3_malloc64(sizeof *t);
    int rc = t == NULL ? SQLITE_NOMEM : SQLITE_OK;
    *out = NULL;
    if (rc == SQLITE_OK) {
        memset(t, 0, sizeof *t);
        t->db = db;
        t->name = sqlite3_mprintf("%s", argv[2]);
        rc = t->name == NULL ? SQLITE_NOMEM : SQLITE_OK;
    }
    if (rc == SQLITE_OK && create) {
        live_template template = {0};
        rc = live_template_from_arguments(db, argv[2], argc - 3, argv + 3, &template, error);
        if (rc == SQLITE_OK) {
            rc = live_store_create(db, argv[1], argv[2], &template, error);
        }
        sqlite3_free(template.head);
    }
    if (rc == SQLITE_OK) {
        rc = live_store_open(db, argv[1], argv[2], &t->store, error);
        t->made_in_transaction = create && !sqlite3_get_autocommit(db);
    }
    if (rc == SQLITE_OK) {
        char *declaration = sqlite3_mprintf(live_declaration, argv[2]);
        rc = declaration == NULL ? SQLITE_NOMEM : sqlite3_declare_vtab(db, declaration);
        sqlite3_free(declaration);
    }
    if (rc == SQLITE_OK) {
        rc = sqlite3_vtab_config(db, SQLITE_VTAB_CONSTRAINT_SUPPORT, 1);
    }
    if (rc != SQLITE_OK) {
        live_table_free(t);
        return rc;
    }
    *out = &t->base;
    return SQLITE_OK;
}

static int live_create(sqlite3 *db, void *aux, int argc, const char *const *argv,
                       sqlite3_vtab **out, char **error) {
    (void)aux;
    return live_open(db, argc, argv, out, error, 1);
}

static int live_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
                        sqlite3_vtab **out, char **error) {
    (void)aux;
    return live_open(db, argc, argv, out, error, 0);
}

static int live_disconnect(sqlite3_vtab *vtab) {
    live_table_free((live_table *)vtab);
    return SQLITE_OK;
}

static int live_destroy(sqlite3_vtab *vtab) {
    live_table *t = (live_table *)vtab;
    int rc = live_store_drop_tables(t->store);
    if (rc != SQLITE_OK) {
        return live_store_error(t, rc);
    }
    live_table_free(t);
    return SQLITE_OK;
}

/* ---- Plans ---- */

static int live_best_index(sqlite3_vtab *vtab, sqlite3_index_info *info) {
    (void)vtab;
    int key = -1, key_null = -1, name = -1, plan = 0, collated = 0;
    for (int i = 0; i < info->nConstraint; i++) {
        const struct sqlite3_index_constraint *c = &info->aConstraint[i];
        if (!c->usable) {
            continue;
        }
        if (c->iColumn == COLUMN_KEY &&
            (c->op == SQLITE_INDEX_CONSTRAINT_EQ || c->op == SQLITE_INDEX_CONSTRAINT_IS)) {
            const char *collation = sqlite3_vtab_collation(info, i);
            if (collation != NULL && sqlite3_stricmp(collation, "BINARY") != 0) {
                collated = 1; /* a filter cannot compare otherwise than its keys' bytes */
            } else if (key < 0) {
                key = i;
            }
        } else if (c->iColumn == COLUMN_KEY && c->op == SQLITE_INDEX_CONSTRAINT_ISNULL) {
            key_null = i;
        } else if (c->iColumn == COLUMN_NAME && name < 0 &&
                   (c->op == SQLITE_INDEX_CONSTRAINT_EQ || c->op == SQLITE_INDEX_CONSTRAINT_IS ||
                    c->op == SQLITE_INDEX_CONSTRAINT_ISNULL)) {
            name = i;
            plan |= c->op == SQLITE_INDEX_CONSTRAINT_EQ   ? PLAN_NAME_EQUALS
                    : c->op == SQLITE_INDEX_CONSTRAINT_IS ? PLAN_NAME_IS
                                                          : PLAN_NAME_NULL;
        }
    }
    int argument = 1;
    if (key >= 0) {
        plan |= PLAN_KEY;
        info->aConstraintUsage[key].argvIndex = argument++;
        info->aConstraintUsage[key].omit = 1;
    } else if (key_null >= 0) {
        plan |= PLAN_KEY_NULL;
        info->aConstraintUsage[key_null].omit = 1;
    } else if (collated) {
        plan |= PLAN_KEY_COLLATED;
    } else if (info->colUsed & ((sqlite3_uint64)1 << COLUMN_KEY)) {
        plan |= PLAN_KEY_MISSING;
    }
    if (name >= 0) {
        if (!(plan & PLAN_NAME_NULL)) {
            info->aConstraintUsage[name].argvIndex = argument++;
        }
        info->aConstraintUsage[name].omit = 1;
        info->idxFlags |= SQLITE_INDEX_SCAN_UNIQUE;
    }
    info->idxNum = plan;
    info->estimatedRows = name >= 0 ? 1 : 100;
    info->estimatedCost = plan & (PLAN_KEY_MISSING | PLAN_KEY_COLLATED) ? 1e30
                          : name >= 0                                   ? 2.0
                          : key >= 0                                    ? 200.0
                                                                        : 100.0;
    return SQLITE_OK;
}

/* ---- Cursors ---- */

/* A cursor is kept when it closes, for the next to open (a correlated subquery opens one a
** row). */
static int live_open_cursor(sqlite3_vtab *vtab, sqlite3_vtab_cursor **out) {
    live_table *t = (live_table *)vtab;
    live_cursor *c = t->spare;
    sql_kept_key key = c != NULL ? c->key : (sql_kept_key){{0}, NULL, 0};
    live_candidates candidates = c != NULL ? c->candidates : (live_candidates){NULL, 0, 0};
    if (c == NULL && (c = sqlite3_malloc64(sizeof *c)) == NULL) {
        return SQLITE_NOMEM;
    }
    t->spare = NULL;
    memset(c, 0, sizeof *c);
    c->key = key; /* (the buffers of the cursor closed last, kept) */
    c->candidates = candidates;
    c->eof = 1;
    if (!t->writing) {
        live_tokens_clear(t); /* no DELETE can give them back */
    }
    *out = &c->base;
    return SQLITE_OK;
}

static int live_close_cursor(sqlite3_vtab_cursor *cursor) {
    live_table *t = (live_table *)cursor->pVtab;
    live_index_close_reader(t->store); /* (a handle left open would hold the statement open) */
    live_cursor_free(t->spare);
    t->spare = (live_cursor *)cursor;
    return SQLITE_OK;
}

/* Probes the cursor's filter for its key: 1 into *answer when it might hold it (a counting kind's
** estimate above 0). */
static int live_probe(live_table *t, live_cursor *c, int *answer) {
    live_filter *f = c->current;
    filter_io io = live_filter_io(f);
    int rc = live_filter_open(f);
    if (rc != SQLITE_OK) {
        return live_store_error(t, rc);
    }
    c->current_key = filter_hash_key(&f->view, &c->key.value);
    if (filter_kind_can(f->view.kind, FILTER_COUNTS)) {
        rc = live_filter_count(f); /* an estimate is read against the count */
        if (rc != SQLITE_OK) {
            return live_store_error(t, rc);
        }
        if (f->view.kind->estimate_io(&f->view, &io, c->current_key, &c->estimate) != FILTER_OK) {
            return live_io_error(t);
        }
        *answer = c->estimate > 0;
        return SQLITE_OK;
    }
    return f->view.kind->might_contain_io(&f->view, &io, c->current_key, answer) == FILTER_OK
               ? SQLITE_OK
               : live_io_error(t);
}

/* live_settle of a scan by candidates: the first at or after candidate_at whose filter the
** index answers for, or that a probe finds might hold the key. */
static int live_settle_candidates(live_table *t, live_cursor *c) {
    int rc = live_store_load(t->store); /* (read again after a statement failed) */
    if (rc != SQLITE_OK) {
        return live_store_error(t, rc);
    }
    for (; c->candidate_at < c->candidates.count; c->candidate_at++) {
        const live_candidate *at = &c->candidates.items[c->candidate_at];
        live_filter *f = live_filter_by_id(t, at->id);
        if (f == NULL) {
            continue; /* dropped since */
        }
        c->current = f;
        c->current_id = f->id;
        c->generation = live_store_generation(t->store);
        int answer = at->known && f->index_class != NULL; /* (else changed since: probed) */
        rc = answer ? SQLITE_OK : live_probe(t, c, &answer);
        if (rc != SQLITE_OK || answer) {
            return rc;
        }
    }
    c->eof = 1;
    return SQLITE_OK;
}

/* Moves the cursor to the first row at or after its position: a filter, or with a key a filter
** that might hold it. */
static int live_settle(live_table *t, live_cursor *c) {
    if (c->by_candidates) {
        return live_settle_candidates(t, c);
    }
    for (;;) {
        c->current = live_store_filter_at(t->store, c->position);
        if (c->current == NULL) {
            c->eof = 1;
            return SQLITE_OK;
        }
        c->current_id = c->current->id;
        if (!(c->plan & PLAN_KEY)) {
            return SQLITE_OK;
        }
        int answer = 0, rc = live_probe(t, c, &answer);
        if (rc != SQLITE_OK || answer) {
            return rc;
        }
        if (c->single) {
            c->eof = 1;
            return SQLITE_OK;
        }
        c->position++;
    }
}

static int live_filter_rows_call(sqlite3_vtab_cursor *cursor, int plan, const char *plan_text,
                                 int argc, sqlite3_value **argv) {
    (void)plan_text;
    (void)argc;
    live_cursor *c = (live_cursor *)cursor;
    live_table *t = (live_table *)cursor->pVtab;
    int argument = 0, rc;
    c->plan = plan;
    c->eof = 1;
    c->single = 0;
    c->position = 0;
    c->has_key = 0;
    c->by_candidates = 0;
    c->candidate_at = 0;
    if (plan & PLAN_KEY_NULL) {
        return SQLITE_OK; /* no filter holds NULL */
    }
    if (plan & PLAN_KEY_COLLATED) {
        return live_error(t, SQLITE_ERROR,
                          "%s: a key cannot be compared with a collation: a filter holds the "
                          "bytes of its keys; to ignore case, add and ask for lower(key)",
                          t->name);
    }
    /* Another connection's commits show at the start of a statement, not within it. */
    if ((!c->checked && (rc = live_store_check(t->store)) != SQLITE_OK) ||
        (rc = live_store_load(t->store)) != SQLITE_OK) {
        return live_store_error(t, rc);
    }
    c->checked = 1;
    c->generation = live_store_generation(t->store);
    if (plan & PLAN_KEY) {
        sqlite3_value *key = argv[argument++];
        if (sqlite3_value_type(key) == SQLITE_NULL) {
            return SQLITE_OK; /* key = NULL holds for no row */
        }
        if ((rc = sql_keep_key(&c->key, key)) != SQLITE_OK) {
            return rc;
        }
        c->has_key = 1;
    }
    if (plan & (PLAN_NAME_EQUALS | PLAN_NAME_IS | PLAN_NAME_NULL)) {
        const char *name = NULL;
        if (!(plan & PLAN_NAME_NULL)) {
            sqlite3_value *v = argv[argument++];
            if (sqlite3_value_type(v) == SQLITE_NULL && (plan & PLAN_NAME_EQUALS)) {
                return SQLITE_OK; /* name = NULL holds for no row */
            }
            if (sqlite3_value_type(v) == SQLITE_BLOB) {
                return SQLITE_OK; /* names are TEXT: no BLOB equals one */
            }
            if ((rc = live_read_name(t, v, &name)) != SQLITE_OK) {
                return rc;
            }
        }
        live_filter *f = live_store_find(t->store, name);
        if (f == NULL) {
            return SQLITE_OK;
        }
        c->single = 1;
        c->position = live_store_position(t->store, f->id);
    }
    if (c->has_key && !c->single) { /* many filters: the index says which to read */
        if ((rc = live_index_load(t->store)) != SQLITE_OK) {
            return live_store_error(t, rc);
        }
        c->by_candidates = live_index_present(t->store);
        if (c->by_candidates &&
            (rc = live_index_candidates(t->store, &c->key.value, &c->candidates)) != SQLITE_OK) {
            return live_store_error(t, rc);
        }
    }
    c->eof = 0;
    return live_settle(t, c);
}

static int live_next_call(sqlite3_vtab_cursor *cursor) {
    live_cursor *c = (live_cursor *)cursor;
    live_table *t = (live_table *)cursor->pVtab;
    if (c->single) {
        c->eof = 1;
        return SQLITE_OK;
    }
    if (c->by_candidates) {
        c->candidate_at++;
        return live_settle(t, c);
    }
    if (c->generation != live_store_generation(t->store)) {
        /* The list changed under the scan (a DELETE of a filter): find the place again. */
        int rc = live_store_load(t->store);
        if (rc != SQLITE_OK) {
            return live_store_error(t, rc);
        }
        c->generation = live_store_generation(t->store);
        c->position = live_store_position(t->store, c->current_id + 1);
    } else {
        c->position++;
    }
    return live_settle(t, c);
}

static int live_eof(sqlite3_vtab_cursor *cursor) {
    return ((live_cursor *)cursor)->eof;
}

/* The filter of the cursor's row into *out, found again by its id when the list changed since
** (NULL: it was dropped). */
static int live_row_filter(live_table *t, live_cursor *c, live_filter **out) {
    *out = c->current;
    if (c->generation == live_store_generation(t->store)) {
        return SQLITE_OK;
    }
    int rc = live_store_load(t->store); /* the list changed since: the filter of that id */
    if (rc != SQLITE_OK) {
        return live_store_error(t, rc);
    }
    *out = live_filter_by_id(t, c->current_id);
    return SQLITE_OK;
}

static int live_column_call(sqlite3_vtab_cursor *cursor, sqlite3_context *ctx, int column) {
    live_cursor *c = (live_cursor *)cursor;
    live_table *t = (live_table *)cursor->pVtab;
    live_filter *f;
    int rc = live_row_filter(t, c, &f);
    if (rc != SQLITE_OK || f == NULL) {
        return rc; /* NULL: the filter was dropped */
    }
    switch (column) {
    case COLUMN_NAME:
        if (f->name != NULL) {
            sqlite3_result_text(ctx, f->name, -1, SQLITE_TRANSIENT);
        }
        return SQLITE_OK;
    case COLUMN_KEY:
        if (c->has_key) {
            sql_result_key(ctx, &c->key.value);
        } else if (!sqlite3_vtab_nochange(ctx)) { /* (an UPDATE reads it without asking) */
            char *message = sqlite3_mprintf(
                "%s: a filter cannot list its keys: ask for one key, as in SELECT name FROM %s "
                "WHERE key = ? (in a join, the table of the keys goes first; in a subquery, "
                "qualify the outer column, as in key = t.email)",
                t->name, t->name);
            sqlite3_result_error(ctx, message != NULL ? message : "out of memory", -1);
            sqlite3_free(message);
            return SQLITE_ERROR;
        }
        return SQLITE_OK;
    case COLUMN_COUNT:
        if (c->has_key && filter_kind_can(f->view.kind, FILTER_COUNTS)) {
            sqlite3_result_int64(ctx, (sqlite3_int64)c->estimate);
        }
        return SQLITE_OK;
    case COLUMN_COMMAND:
        return SQLITE_OK;
    default: {
        uint8_t *blob;
        int limit = sqlite3_limit(t->db, SQLITE_LIMIT_LENGTH, -1);
        if (f->view.bytes > (uint64_t)limit) {
            sqlite3_result_error_toobig(ctx);
            return SQLITE_TOOBIG;
        }
        rc = live_filter_open(f); /* (the snapshot sums the count as it reads the rows) */
        if (rc == SQLITE_OK) {
            rc = live_filter_snapshot(f, &blob);
        }
        if (rc != SQLITE_OK) {
            char *message = live_store_take_error(t->store);
            if (message != NULL) {
                sqlite3_result_error(ctx, message, -1);
                sqlite3_free(message);
            }
            sqlite3_result_error_code(ctx, rc);
            return rc;
        }
        sqlite3_result_blob64(ctx, blob, f->view.bytes, sqlite3_free);
        return SQLITE_OK;
    }
    }
}

/* The rowid of a row: its filter's id, or for a row found by key a new token's, -1 - its
** index. */
static int live_rowid(sqlite3_vtab_cursor *cursor, sqlite3_int64 *rowid) {
    live_cursor *c = (live_cursor *)cursor;
    live_table *t = (live_table *)cursor->pVtab;
    if (!c->has_key) {
        *rowid = c->current_id;
        return SQLITE_OK;
    }
    if (t->token_count == t->token_capacity) {
        live_token *grown =
            sql_grown(t->tokens, &t->token_capacity, t->token_count + 1, sizeof *grown, 16);
        if (grown == NULL) {
            return SQLITE_NOMEM;
        }
        t->tokens = grown;
    }
    t->tokens[t->token_count].filter = c->current_id;
    t->tokens[t->token_count].key = c->current_key;
    *rowid = -(sqlite3_int64)t->token_count - 1;
    t->token_count++;
    return SQLITE_OK;
}

/* ---- Changes ---- */

static int live_update_call(sqlite3_vtab *vtab, int argc, sqlite3_value **argv,
                            sqlite3_int64 *rowid) {
    live_table *t = (live_table *)vtab;
    int adds_a_key = argc > 1 && sqlite3_value_type(argv[2 + COLUMN_KEY]) != SQLITE_NULL &&
                     sqlite3_value_type(argv[2 + COLUMN_FILTER]) == SQLITE_NULL;
    int rc = adds_a_key ? SQLITE_OK : live_batch_drain(t);
    if (rc != SQLITE_OK) {
        return rc;
    }
    if (argc == 1) {
        return live_delete(t, sqlite3_value_int64(argv[0]));
    }
    if (sqlite3_value_type(argv[0]) != SQLITE_NULL) {
        return live_error(t, SQLITE_ERROR,
                          "%s: a live table's rows cannot be updated: DELETE the key and INSERT "
                          "the new one",
                          t->name);
    }
    return live_insert(t, argv, rowid);
}

/* ---- Transactions ---- */

static int live_begin_call(sqlite3_vtab *vtab) {
    live_table *t = (live_table *)vtab;
    int rc = live_store_check(t->store);
    t->writing = 1;
    live_tokens_clear(t);
    return rc == SQLITE_OK ? SQLITE_OK : live_store_error(t, rc);
}

static int live_sync_call(sqlite3_vtab *vtab) {
    live_table *t = (live_table *)vtab;
    if (t->keys_lost) {
        return live_error(t, SQLITE_ERROR,
                          "%s: an earlier error lost keys this transaction added, so it cannot "
                          "commit: roll it back and run it again",
                          t->name);
    }
    int rc = live_store_flush(t->store);
    return rc == SQLITE_OK ? SQLITE_OK : live_store_error(t, rc);
}

static int live_commit(sqlite3_vtab *vtab) {
    live_table *t = (live_table *)vtab;
    t->made_in_transaction = 0;
    live_store_committed(t->store);
    t->writing = 0;
    live_tokens_clear(t);
    return SQLITE_OK;
}

/* Drops what the transaction (pending 2) or the savepoint (1) changed. */
static void live_roll_back(live_table *t, int pending) {
    t->batch_count = 0;
    live_store_discard(t->store);
    if (pending == 2) {
        t->keys_lost = 0;
        t->made_in_transaction = 0;
        t->writing = 0;
        live_tokens_clear(t);
    }
}

static int live_rollback(sqlite3_vtab *vtab) {
    live_table *t = (live_table *)vtab;
    if (t->busy) {
        t->rollback_pending = 2;
        t->writing = 0;
        return SQLITE_OK;
    }
    live_roll_back(t, 2);
    return SQLITE_OK;
}

/* xSavepoint: the start of a statement or a SAVEPOINT; what the statements before changed,
** written. */
static int live_savepoint_call(sqlite3_vtab *vtab, int savepoint) {
    (void)savepoint;
    live_tokens_clear((live_table *)vtab);
    return live_sync_call(vtab);
}

static int live_release_call(sqlite3_vtab *vtab, int savepoint) {
    (void)savepoint;
    return live_sync_call(vtab);
}

static int live_rollback_to(sqlite3_vtab *vtab, int savepoint) {
    live_table *t = (live_table *)vtab;
    (void)savepoint;
    if (t->busy) {
        t->rollback_pending = t->rollback_pending > 1 ? t->rollback_pending : 1;
        return SQLITE_OK;
    }
    live_roll_back(t, 1);
    return SQLITE_OK;
}

/*
** The calls that run statements of their own: one that fails may make SQLite roll the
** transaction back then and there (out of memory, a full disk), calling xRollback within the
** call, whose filters and tokens must outlast it. So a rollback within a call is done as the
** call ends (live_leave).
*/

/* Notes that a call of the module began. */
static void live_enter(live_table *t) {
    t->busy++;
}

/* Ends a call of the module that answered rc: a rollback within it is done now. */
static int live_leave(live_table *t, int rc) {
    if (--t->busy == 0 && t->rollback_pending) {
        int pending = t->rollback_pending;
        t->rollback_pending = 0;
        live_roll_back(t, pending);
    }
    return rc;
}

static int live_filter_rows(sqlite3_vtab_cursor *cursor, int plan, const char *plan_text, int argc,
                            sqlite3_value **argv) {
    live_table *t = (live_table *)cursor->pVtab;
    live_enter(t);
    int rc = live_batch_drain(t);
    return live_leave(
        t, rc != SQLITE_OK ? rc : live_filter_rows_call(cursor, plan, plan_text, argc, argv));
}

static int live_next(sqlite3_vtab_cursor *cursor) {
    live_table *t = (live_table *)cursor->pVtab;
    live_enter(t);
    int rc = live_batch_drain(t);
    return live_leave(t, rc != SQLITE_OK ? rc : live_next_call(cursor));
}

static int live_column(sqlite3_vtab_cursor *cursor, sqlite3_context *ctx, int column) {
    live_table *t = (live_table *)cursor->pVtab;
    live_enter(t);
    int rc = live_batch_drain(t);
    return live_leave(t, rc != SQLITE_OK ? rc : live_column_call(cursor, ctx, column));
}

static int live_update(sqlite3_vtab *vtab, int argc, sqlite3_value **argv, sqlite3_int64 *rowid) {
    live_enter((live_table *)vtab);
    return live_leave((live_table *)vtab, live_update_call(vtab, argc, argv, rowid));
}

static int live_begin(sqlite3_vtab *vtab) {
    live_table *t = (live_table *)vtab;
    live_enter(t);
    int rc = live_batch_drain(t);
    return live_leave(t, rc != SQLITE_OK ? rc : live_begin_call(vtab));
}

/* What a call that writes the transaction's changes does first. SQLite calls no xRollbackTo
** on a table made after the savepoint that a ROLLBACK TO goes back to, and goes on calling its
** xSavepoint and xSync: so a table made in the open transaction that has changes to write
** first checks that its rows are still its own; if they are gone or another table's, it drops
** what it held and writes nothing more (t->tables_not_ours). Then the keys waiting are added. */
static int live_before_writing(live_table *t) {
    int rc = SQLITE_OK;
    if (t->made_in_transaction && !t->tables_not_ours &&
        (t->batch_count > 0 || live_store_has_changes(t->store))) {
        rc = live_store_tables_not_ours(t->store, &t->tables_not_ours);
        if (t->tables_not_ours) {
            t->batch_count = 0;
            t->keys_lost = 0;
            live_tokens_clear(t);
        }
    }
    if (rc != SQLITE_OK) {
        return live_store_error(t, rc);
    }
    return t->tables_not_ours ? SQLITE_OK : live_batch_drain(t);
}

static int live_sync(sqlite3_vtab *vtab) {
    live_table *t = (live_table *)vtab;
    live_enter(t);
    int rc = live_before_writing(t);
    return live_leave(t, rc != SQLITE_OK || t->tables_not_ours ? rc : live_sync_call(vtab));
}

static int live_savepoint(sqlite3_vtab *vtab, int savepoint) {
    live_table *t = (live_table *)vtab;
    live_enter(t);
    int rc = live_before_writing(t);
    return live_leave(
        t, rc != SQLITE_OK || t->tables_not_ours ? rc : live_savepoint_call(vtab, savepoint));
}

static int live_release(sqlite3_vtab *vtab, int savepoint) {
    live_table *t = (live_table *)vtab;
    live_enter(t);
    int rc = live_before_writing(t);
    return live_leave(
        t, rc != SQLITE_OK || t->tables_not_ours ? rc : live_release_call(vtab, savepoint));
}

static int live_rename_call(sqlite3_vtab *vtab, const char *new_name) {
    live_table *t = (live_table *)vtab;
    char *name = sqlite3_mprintf("%s", new_name);
    int rc = name == NULL ? SQLITE_NOMEM : live_store_flush(t->store);
    if (rc == SQLITE_OK) {
        rc = live_store_rename(t->store, new_name);
    }
    if (rc != SQLITE_OK) {
        sqlite3_free(name);
        return live_store_error(t, rc);
    }
    sqlite3_free(t->name);
    t->name = name;
    return SQLITE_OK;
}

static int live_rename(sqlite3_vtab *vtab, const char *new_name) {
    live_table *t = (live_table *)vtab;
    live_enter(t);
    int rc = live_batch_drain(t);
    return live_leave(t, rc != SQLITE_OK ? rc : live_rename_call(vtab, new_name));
}

/* The shadow tables, which defensive mode keeps ordinary SQL from writing. */
static int live_shadow_name(const char *suffix) {
    return sqlite3_stricmp(suffix, "config") == 0 || sqlite3_stricmp(suffix, "filters") == 0 ||
           sqlite3_stricmp(suffix, "chunks") == 0;
}

/* PRAGMA integrity_check and quick_check (SQLite 3.44 and later): the store's rows checked. */
static int live_integrity(sqlite3_vtab *vtab, const char *schema, const char *table, int flags,
                          char **report) {
    live_table *t = (live_table *)vtab;
    (void)schema;
    (void)table;
    live_enter(t);
    int rc = live_batch_drain(t);
    if (rc == SQLITE_OK) {
        rc = live_store_integrity(t->store, flags & 1, report);
    }
    if (rc == SQLITE_OK && *report == NULL) {
        rc = live_index_integrity(t->store, flags & 1);
        if (rc == SQLITE_CORRUPT_VTAB) {
            *report = live_store_take_error(t->store);
            rc = *report != NULL ? SQLITE_OK : SQLITE_NOMEM;
        }
    }
    return live_leave(t, rc != SQLITE_OK ? live_store_error(t, rc) : rc);
}

/* The module's methods; xIntegrity (iVersion 4, SQLite 3.44) is set apart below. */
// clang-format off
#define LIVE_MODULE_SLOTS            \
    .iVersion = 4,                   \
    .xCreate = live_create,          \
    .xConnect = live_connect,        \
    .xBestIndex = live_best_index,   \
    .xDisconnect = live_disconnect,  \
    .xDestroy = live_destroy,        \
    .xOpen = live_open_cursor,       \
    .xClose = live_close_cursor,     \
    .xFilter = live_filter_rows,     \
    .xNext = live_next,              \
    .xEof = live_eof,                \
    .xColumn = live_column,          \
    .xRowid = live_rowid,            \
    .xUpdate = live_update,          \
    .xBegin = live_begin,            \
    .xSync = live_sync,              \
    .xCommit = live_commit,          \
    .xRollback = live_rollback,      \
    .xFindFunction = NULL,           \
    .xRename = live_rename,          \
    .xSavepoint = live_savepoint,    \
    .xRelease = live_release,        \
    .xRollbackTo = live_rollback_to, \
    .xShadowName = live_shadow_name
// clang-format on

#if SQLITE_VERSION_NUMBER >= 3044000
static const sqlite3_module live_module = {LIVE_MODULE_SLOTS, .xIntegrity = live_integrity};
#define LIVE_MODULE (&live_module)
#else
/* sqlite3_module as SQLite 3.44 grew it, for the headers of an older one: the slot after
** xShadowName, which SQLite 3.44 and later read (iVersion 4) and older ones do not. */
static const struct {
    sqlite3_module module;
    int (*xIntegrity)(sqlite3_vtab *, const char *, const char *, int, char **);
} live_module = {.module = {LIVE_MODULE_SLOTS}, .xIntegrity = live_integrity};
#define LIVE_MODULE (&live_module.module)
#endif

int live_table_register(sqlite3 *db) {
    return sqlite3_create_module_v2(db, "bloom", LIVE_MODULE, NULL, NULL);
}
