/*
** live_changes.c: what INSERT and DELETE do to a live table. See live_changes.h.
*/
#include "live_changes.h"

#include "live_chunks.h"
#include "sql_args.h"
#include "sql_error.h"
#include "sql_kind_table.h"
#include "sql_memory.h"

#include <stdarg.h>
#include <string.h>

/* Sets the table's error to the message of format and returns rc. */
int live_error(live_table *t, int rc, const char *format, ...) {
    va_list args;
    va_start(args, format);
    char *message = sqlite3_vmprintf(format, args);
    va_end(args);
    sqlite3_free(t->base.zErrMsg);
    t->base.zErrMsg = message;
    return message == NULL ? SQLITE_NOMEM : rc;
}

/* Sets the table's error to the store's, for rc. */
int live_store_error(live_table *t, int rc) {
    char *message = live_store_take_error(t->store);
    if (message != NULL) {
        sqlite3_free(t->base.zErrMsg);
        t->base.zErrMsg = message;
    }
    return rc;
}

/* The error of an operation that failed with FILTER_IO_FAILED. */
int live_io_error(live_table *t) {
    char *message = live_store_take_error(t->store);
    if (message == NULL) {
        return SQLITE_NOMEM;
    }
    sqlite3_free(t->base.zErrMsg);
    t->base.zErrMsg = message;
    return SQLITE_ERROR;
}

/* Sets the error of value v for what ("name must be TEXT"), as the functions show values. */
int live_value_error(live_table *t, const char *what, sqlite3_value *v) {
    sqlite3_str *s = sql_error_start(t->name, what, v);
    char *message = sqlite3_str_finish(s);
    if (message == NULL) {
        return SQLITE_NOMEM;
    }
    sqlite3_free(t->base.zErrMsg);
    t->base.zErrMsg = message;
    return SQLITE_ERROR;
}

/* The message of a kind's refusal of ability. */
int live_refusal(live_table *t, const filter_kind *kind, filter_ability ability) {
    char why[FILTER_WHY_MAX];
    filter_kind_refusal(kind, ability, why);
    return live_error(t, SQLITE_ERROR, "%s: %s", t->name, why);
}

/* Forgets the tokens of rows found by key. */
void live_tokens_clear(live_table *t) {
    t->token_count = 0;
}

/* Reads a name value into *name (NULL: the unnamed filter): TEXT, or a number as its text. */
int live_read_name(live_table *t, sqlite3_value *v, const char **name) {
    int type = sqlite3_value_type(v);
    *name = NULL;
    if (type == SQLITE_NULL) {
        return SQLITE_OK;
    }
    if (type == SQLITE_BLOB) {
        return live_value_error(t, "name must be TEXT", v);
    }
    *name = (const char *)sqlite3_value_text(v);
    return *name == NULL ? SQLITE_NOMEM : SQLITE_OK;
}

/* The filter of id, or NULL. */
live_filter *live_filter_by_id(live_table *t, sqlite3_int64 id) {
    live_filter *f = live_store_filter_at(t->store, live_store_position(t->store, id));
    return f != NULL && f->id == id ? f : NULL;
}

/* The token that rowid (negative) names, or NULL. */
static const live_token *live_token_of(live_table *t, sqlite3_int64 rowid) {
    uint64_t index = (uint64_t)(-(rowid + 1));
    return index < t->token_count ? &t->tokens[index] : NULL;
}

/* DELETE of the row rowid: a key from its filter, or a whole filter. */
int live_delete(live_table *t, sqlite3_int64 rowid) {
    int rc = live_store_load(t->store);
    if (rc != SQLITE_OK) {
        return live_store_error(t, rc);
    }
    if (rowid > 0) {
        live_filter *f = live_filter_by_id(t, rowid);
        rc = f != NULL ? live_index_forget(t->store, f) : SQLITE_OK;
        if (rc == SQLITE_OK && f != NULL) {
            rc = live_store_remove(t->store, f);
        }
        return rc == SQLITE_OK ? SQLITE_OK : live_store_error(t, rc);
    }
    const live_token *token = live_token_of(t, rowid);
    live_filter *f = token != NULL ? live_filter_by_id(t, token->filter) : NULL;
    if (f == NULL) {
        return SQLITE_OK; /* its filter was dropped by the same statement */
    }
    if (!filter_kind_can(f->view.kind, FILTER_REMOVES)) {
        return live_refusal(t, f->view.kind, FILTER_REMOVES);
    }
    filter_io io = live_filter_io(f);
    if ((rc = live_index_forget(t->store, f)) != SQLITE_OK ||
        (rc = live_op_begin(f)) != SQLITE_OK) {
        return live_store_error(t, rc);
    }
    filter_status status = f->view.kind->remove_io(&f->view, &io, token->key);
    live_op_end(f);
    if (status == FILTER_IO_FAILED) {
        return live_io_error(t);
    }
    return SQLITE_OK; /* FILTER_ABSENT: a false positive found it, and nothing was there */
}

/* Grows f after an add found it full: grow_size's bytes, within SQLite's length limit. */
static int live_grow(live_table *t, live_filter *f) {
    uint64_t grown;
    filter_status status = f->view.kind->grow_size(&f->view, &grown);
    int limit = sqlite3_limit(t->db, SQLITE_LIMIT_LENGTH, -1);
    if (status != FILTER_OK) {
        return live_error(t, SQLITE_ERROR, "%s: the '%s' filter cannot grow: %s", t->name,
                          f->view.kind->name, sql_kind_cannot_grow_reason(status));
    }
    if (grown > (uint64_t)limit) {
        return live_error(t, SQLITE_TOOBIG,
                          "%s: the '%s' filter would grow to %llu bytes, more than the length "
                          "limit of %d bytes",
                          t->name, f->view.kind->name, (unsigned long long)grown, limit);
    }
    filter_view before = f->view;
    filter_io io = live_filter_io(f);
    live_filter_lengthen(f, grown);
    return f->view.kind->grow_io(&before, &io) == FILTER_OK ? SQLITE_OK : live_io_error(t);
}

/* SQLITE_ERROR with message (from sqlite3_malloc) as the table's error; SQLITE_NOMEM when it is
** NULL. (SQLITE_FULL, for a full filter, would end the transaction: a full disk's code.) */
static int live_message_error(live_table *t, char *message) {
    if (message == NULL) {
        return SQLITE_NOMEM;
    }
    sqlite3_free(t->base.zErrMsg);
    t->base.zErrMsg = message;
    return SQLITE_ERROR;
}

/* Adds the key of hash (count times, to a kind that counts) to f, growing a filter that grows;
** key, the value, for the message of a key f refuses (NULL in a batch: a kind that refuses keys
** does not batch). */
static int live_add_hash(live_table *t, live_filter *f, key_hash hash, sqlite3_value *key,
                         uint64_t count) {
    filter_io io = live_filter_io(f);
    int was_absent, rc = live_index_forget(t->store, f);
    if (rc == SQLITE_OK) {
        rc = live_op_begin(f);
    }
    filter_status status;
    if (rc != SQLITE_OK) {
        return live_store_error(t, rc);
    }
    if (f->view.kind->full_advice != NULL) {
        live_op_keep_undo(f); /* a key with no room leaves the filter as it was */
    }
    if (filter_kind_can(f->view.kind, FILTER_COUNTS)) {
        uint64_t estimate;
        status = f->view.kind->add_count_io(&f->view, &io, hash, count, &estimate);
    } else {
        status = f->view.kind->add_io(&f->view, &io, hash, &was_absent);
        if (status == FILTER_FULL && filter_kind_can(f->view.kind, FILTER_GROWS)) {
            rc = live_grow(t, f);
            status = rc != SQLITE_OK ? FILTER_OK
                                     : f->view.kind->add_io(&f->view, &io, hash, &was_absent);
        }
    }
    if (status == FILTER_FULL && live_op_undo(f) != 0) {
        status = FILTER_IO_FAILED;
    }
    live_op_end(f);
    t->keys_lost |= status == FILTER_IO_FAILED; /* it may have moved other keys halfway */
    if (rc != SQLITE_OK) {
        return rc;
    }
    if (status == FILTER_IO_FAILED) {
        return live_io_error(t);
    }
    if (status == FILTER_FULL || status == FILTER_REFUSED) {
        char type[FILTER_TYPE_TEXT_MAX];
        return live_message_error(
            t, status == FILTER_FULL
                   ? sql_full_message(t->name, "the key", f->view.kind)
                   : sql_refused_message(t->name, key, f->view.kind->value_type(&f->view, type)));
    }
    return SQLITE_OK;
}

/* The error of a key that a filter of type cannot take. */
static int live_refused(live_table *t, sqlite3_value *key, const char *type) {
    return live_message_error(t, sql_refused_message(t->name, key, type));
}

/* Adds the keys waiting in the batch to their filter, their lines asked for first. A failure
** loses keys of statements that succeeded: the transaction can then only roll back. */
int live_batch_drain(live_table *t) {
    int count = t->batch_count, rc = SQLITE_OK;
    if (count == 0) {
        return SQLITE_OK;
    }
    t->batch_count = 0;
    live_filter_prefetch(t->batch_filter, t->batch, count);
    for (int i = 0; rc == SQLITE_OK && i < count; i++) {
        rc = live_add_hash(t, t->batch_filter, t->batch[i], NULL, 1);
    }
    t->keys_lost |= rc != SQLITE_OK;
    return rc;
}

/* Whether keys added to f wait in the batch: a key at a time, of a kind whose add fails only
** by its io (it neither fills up, nor grows, nor refuses keys) and that probes in place (which
** finds its lines). */
static int live_batches(const live_filter *f, uint64_t count) {
    const filter_kind *kind = f->view.kind;
    return count == 1 && !filter_kind_can(kind, FILTER_COUNTS) && kind->full_advice == NULL &&
           kind->value_type == NULL && !filter_kind_can(kind, FILTER_GROWS) &&
           filter_kind_can(kind, FILTER_PROBES_IN_PLACE);
}

/* Adds key (read from value) to f, in the batch when f batches (live_batches), or at once. */
static int live_add(live_table *t, live_filter *f, sqlite3_value *value, const key_value *key,
                    uint64_t count) {
    key_hash hash = filter_hash_key(&f->view, key);
    int rc = t->batch_filter == f ? SQLITE_OK : live_batch_drain(t);
    if (rc != SQLITE_OK || !live_batches(f, count)) {
        return rc != SQLITE_OK ? rc : live_add_hash(t, f, hash, value, count);
    }
    t->batch_filter = f;
    t->batch[t->batch_count++] = hash;
    return t->batch_count < LIVE_BATCH_KEYS ? SQLITE_OK : live_batch_drain(t);
}

/* Loads the filter BLOB v as a new filter called name, into *out; on a name in use, what the
** statement's conflict clause says. */
static int live_load(live_table *t, const char *name, sqlite3_value *v, live_filter **out) {
    filter_view view;
    char why[FILTER_WHY_MAX];
    *out = NULL;
    if (sqlite3_value_type(v) != SQLITE_BLOB) {
        return live_value_error(t, "the filter must be a BLOB", v);
    }
    const uint8_t *blob = sqlite3_value_blob(v);
    uint64_t bytes = (uint64_t)sqlite3_value_bytes(v);
    if (blob == NULL || filter_open(blob, bytes, &view, why) != FILTER_OK) {
        return blob == NULL && bytes > 0 ? SQLITE_NOMEM
                                         : live_error(t, SQLITE_ERROR, "%s: %s", t->name,
                                                      blob == NULL ? "the filter is empty" : why);
    }
    if (!filter_kind_can(view.kind, FILTER_PROBES_IN_PLACE)) {
        return live_refusal(t, view.kind, FILTER_PROBES_IN_PLACE);
    }
    live_filter *existing = live_store_find(t->store, name);
    if (existing != NULL) {
        int conflict = sqlite3_vtab_on_conflict(t->db);
        if (conflict == SQLITE_IGNORE) {
            return SQLITE_CONSTRAINT; /* SQLite skips the row: no change, no rowid */
        }
        if (conflict != SQLITE_REPLACE) {
            return name == NULL ? live_error(t, SQLITE_CONSTRAINT,
                                             "%s: the unnamed filter exists; DELETE it first, "
                                             "or INSERT OR REPLACE",
                                             t->name)
                                : live_error(t, SQLITE_CONSTRAINT,
                                             "%s: a filter named '%s' exists; DELETE it first, "
                                             "or INSERT OR REPLACE",
                                             t->name, name);
        }
        int rc = live_index_forget(t->store, existing);
        if (rc == SQLITE_OK) {
            rc = live_store_remove(t->store, existing);
        }
        if (rc != SQLITE_OK) {
            return live_store_error(t, rc);
        }
    }
    int rc = live_store_add_blob(t->store, name, blob, bytes, out);
    if (rc == SQLITE_OK) {
        rc = live_index_added(t->store, *out);
    }
    return rc == SQLITE_OK ? SQLITE_OK : live_store_error(t, rc);
}

/* Makes a filter called name from the table's template, into *out (an error without one). */
static int live_filter_new(live_table *t, const char *name, live_filter **out) {
    if (!live_store_has_template(t->store)) {
        return name == NULL
                   ? live_error(t, SQLITE_ERROR,
                                "%s: no unnamed filter, and the table was created without the "
                                "parameters to make one: load one with INSERT INTO %s(filter)",
                                t->name, t->name)
                   : live_error(t, SQLITE_ERROR,
                                "%s: no filter named '%s', and the table was created without "
                                "the parameters to make one: load one with INSERT INTO %s(name, "
                                "filter)",
                                t->name, name, t->name);
    }
    int rc = live_store_add_empty(t->store, name, out);
    if (rc == SQLITE_OK) {
        rc = live_index_added(t->store, *out);
    }
    return rc == SQLITE_OK ? SQLITE_OK : live_store_error(t, rc);
}

/* The error of a count given to a filter of a kind that does not count its keys: whose count it
** is ("a count-min sketch's"), the kinds that count named by their tables' word for a filter. */
static int live_count_refusal(live_table *t, sqlite3_value *v) {
    sqlite3_str *s = sqlite3_str_new(NULL);
    const sql_kind *kind;
    sqlite3_str_appendall(s, "count is ");
    for (size_t i = 0, named = 0; (kind = sql_kind_at(i)) != NULL; i++) {
        if (filter_kind_can(kind->kind, FILTER_COUNTS) && kind->table_arguments != NULL) {
            sqlite3_str_appendf(s, "%sa %s's", named++ == 0 ? "" : " or ",
                                kind->table_arguments->filter);
        }
    }
    sqlite3_str_appendall(s, "; a filter takes each key once");
    char *what = sqlite3_str_finish(s);
    if (what == NULL) {
        return SQLITE_NOMEM;
    }
    int rc = live_value_error(t, what, v);
    sqlite3_free(what);
    return rc;
}

/* Reads the count column of an INSERT into *count: NULL (1), or for a kind that counts its keys
** a whole number from 0. */
static int live_read_count(live_table *t, const filter_kind *kind, sqlite3_value *v,
                           uint64_t *count) {
    *count = 1;
    if (sqlite3_value_type(v) == SQLITE_NULL) {
        return SQLITE_OK;
    }
    if (kind == NULL || !filter_kind_can(kind, FILTER_COUNTS)) {
        return live_count_refusal(t, v);
    }
    if (sqlite3_value_type(v) != SQLITE_INTEGER || sqlite3_value_int64(v) < 0) {
        return live_value_error(t, "count must be a whole number from 0", v);
    }
    *count = (uint64_t)sqlite3_value_int64(v);
    return SQLITE_OK;
}

/* The filter called name (NULL: the unnamed one), made from the template if there is none, into
** *out. */
static int live_filter_named(live_table *t, const char *name, live_filter **out) {
    *out = live_store_find(t->store, name);
    return *out != NULL ? SQLITE_OK : live_filter_new(t, name, out);
}

/* A command: INSERT INTO t(t) VALUES ('optimize') makes the index again (live_index.h), nothing
** else given; INSERT INTO t(t, name) VALUES ('allocate', NAME) writes a row for each chunk of
** the filter NAME (made if need be) that has none (live_store_allocate). */
static int live_command(live_table *t, sqlite3_value **argv) {
    sqlite3_value *command = argv[2 + COLUMN_COMMAND];
    const unsigned char *text = sqlite3_value_text(command);
    int allocate = sqlite3_value_type(command) == SQLITE_TEXT && text != NULL &&
                   sqlite3_stricmp((const char *)text, "allocate") == 0;
    if (!allocate && (sqlite3_value_type(command) != SQLITE_TEXT || text == NULL ||
                      sqlite3_stricmp((const char *)text, "optimize") != 0)) {
        return live_value_error(t,
                                "the command is 'optimize' (the index made again) or 'allocate' "
                                "(a filter's chunk rows written at once)",
                                command);
    }
    for (int i = allocate ? COLUMN_NAME + 1 : COLUMN_NAME; i < COLUMN_COMMAND; i++) {
        if (sqlite3_value_type(argv[2 + i]) != SQLITE_NULL) {
            return live_error(t, SQLITE_ERROR,
                              "%s: a command is given alone, or with a name for 'allocate': "
                              "INSERT INTO %s(%s) VALUES ('optimize'), INSERT INTO %s(%s, name) "
                              "VALUES ('allocate', NAME)",
                              t->name, t->name, t->name, t->name, t->name);
        }
    }
    int rc = live_store_load(t->store);
    if (rc == SQLITE_OK && !allocate) {
        rc = live_index_build(t->store);
    } else if (rc == SQLITE_OK) {
        const char *name;
        live_filter *f;
        if ((rc = live_read_name(t, argv[2 + COLUMN_NAME], &name)) != SQLITE_OK ||
            (rc = live_filter_named(t, name, &f)) != SQLITE_OK) {
            return rc;
        }
        rc = live_store_allocate(t->store, f);
    }
    return rc == SQLITE_OK ? SQLITE_OK : live_store_error(t, rc);
}

/* INSERT: point 2 of the header comment. */
int live_insert(live_table *t, sqlite3_value **argv, sqlite3_int64 *rowid) {
    sqlite3_value *name_value = argv[2 + COLUMN_NAME], *key = argv[2 + COLUMN_KEY];
    sqlite3_value *filter = argv[2 + COLUMN_FILTER], *count_value = argv[2 + COLUMN_COUNT];
    if (sqlite3_value_type(argv[2 + COLUMN_COMMAND]) != SQLITE_NULL) {
        *rowid = 0;
        return live_command(t, argv);
    }
    const char *name;
    live_filter *f = NULL;
    key_value key_read;
    uint64_t count;
    int rc = live_read_name(t, name_value, &name);
    if (rc == SQLITE_OK && sqlite3_value_type(argv[1]) != SQLITE_NULL) {
        return live_value_error(t, "a live table's rowids are its own; rowid must be NULL",
                                argv[1]);
    }
    if (rc == SQLITE_OK && (rc = live_store_load(t->store)) != SQLITE_OK) {
        return live_store_error(t, rc);
    }
    if (rc != SQLITE_OK) {
        return rc;
    }
    if (sqlite3_value_type(filter) != SQLITE_NULL) {
        if (sqlite3_value_type(key) != SQLITE_NULL ||
            sqlite3_value_type(count_value) != SQLITE_NULL) {
            return live_error(t, SQLITE_ERROR,
                              "%s: a row loads a filter or adds a key, not both: INSERT INTO "
                              "%s(name, filter) or INSERT INTO %s(name, key)",
                              t->name, t->name, t->name);
        }
        rc = live_load(t, name, filter, &f);
    } else {
        /* The count, and a key the kind refuses whatever the filter (a REAL in a 'spark'
        ** one), are checked before a filter is made of the name: an error leaves none. */
        f = live_store_find(t->store, name);
        const filter_kind *kind = f != NULL ? f->view.kind : live_store_template_kind(t->store);
        int has_key = sqlite3_value_type(key) != SQLITE_NULL;
        if (has_key && sql_key_value_of(key, &key_read) != SQL_KEY_READ) {
            return SQLITE_NOMEM;
        }
        if ((rc = live_read_count(t, kind, count_value, &count)) == SQLITE_OK && f == NULL) {
            char type[FILTER_TYPE_TEXT_MAX];
            const char *refused =
                has_key ? live_store_template_refusal(t->store, &key_read, type) : NULL;
            if (refused != NULL) {
                return live_refused(t, key, refused);
            }
            rc = live_filter_new(t, name, &f);
        }
        if (rc == SQLITE_OK && has_key) {
            if (!filter_kind_can(f->view.kind, FILTER_ADDS_IN_PLACE)) {
                return live_refusal(t, f->view.kind, FILTER_ADDS_IN_PLACE);
            }
            rc = live_add(t, f, key, &key_read, count);
        }
    }
    *rowid = f != NULL ? f->id : 0;
    return rc;
}
