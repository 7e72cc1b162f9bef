/*
** live_arguments.c: a live table's arguments, and the template of its new filters. See
** live_arguments.h.
*/
#include "live_arguments.h"

#include "filter_kinds.h"
#include "sql_args.h"
#include "sql_error.h"
#include "sql_kind_table.h"

#include <stdlib.h>
#include <string.h>

/* The arguments of a table of filters: n and p, and the kind bloom_empty takes (rule 26 (live
** table)). A kind that takes others says which (its SQL side's table_arguments). */
static const sql_table_arguments live_filter_arguments = {
    .names = {"n", "p", "kind"},
    .required = 2,
    .filters = "filters",
    .filter = "filter",
    .listed = "n and p (and kind)",
    .empty_sql = "SELECT bloom_empty(?1, ?2, coalesce(?3, 'standard'))",
    .empty_function = "bloom_empty"};

/* The most argument names of every kind together. */
enum { LIVE_ARGUMENT_NAMES_MAX = 16 };

/* The arguments CREATE may give: every name a kind takes, "kind" first, and the values given. */
typedef struct live_arguments {
    const char *names[LIVE_ARGUMENT_NAMES_MAX];
    sqlite3_value *values[LIVE_ARGUMENT_NAMES_MAX];
    size_t count;
    int given;
} live_arguments;

/* Reads an argument's value: a quoted string, a number, or a bare word (as text), as a value
** from the statement stmt's result (column 0 of "SELECT value"). */
static int live_argument_value(sqlite3 *db, const char *text, sqlite3_value **out) {
    sqlite3_stmt *stmt = NULL;
    char *sql;
    size_t length = strlen(text);
    int quoted = length >= 2 && (text[0] == '\'' || text[0] == '"') && text[length - 1] == text[0];
    char *end = NULL;
    strtod(text, &end);
    if (quoted) {
        sql = sqlite3_mprintf("SELECT %.*Q", (int)length - 2, text + 1);
    } else if (length > 0 && end != NULL && *end == '\0' &&
               strspn(text, "+-.0123456789eE") == length) {
        sql = sqlite3_mprintf("SELECT %s", text); /* digits, signs and exponents alone */
    } else {
        sql = sqlite3_mprintf("SELECT %Q", text);
    }
    int rc = sql == NULL ? SQLITE_NOMEM : sqlite3_prepare_v2(db, sql, -1, &stmt, NULL);
    sqlite3_free(sql);
    if (rc == SQLITE_OK && sqlite3_step(stmt) == SQLITE_ROW) {
        *out = sqlite3_value_dup(sqlite3_column_value(stmt, 0));
        rc = *out == NULL ? SQLITE_NOMEM : SQLITE_OK;
    } else if (rc == SQLITE_OK) {
        rc = sqlite3_errcode(db);
    }
    sqlite3_finalize(stmt);
    return rc;
}

/* Adds the names of set to those of a it lacks. */
static void live_arguments_take_names(live_arguments *a, const sql_table_arguments *set) {
    for (int i = 0; i < SQL_TABLE_ARGUMENTS_MAX && set->names[i] != NULL; i++) {
        size_t at = 0;
        while (at < a->count && strcmp(a->names[at], set->names[i]) != 0) {
            at++;
        }
        if (at == a->count && a->count < LIVE_ARGUMENT_NAMES_MAX) {
            a->names[a->count++] = set->names[i];
        }
    }
}

/* Makes a the arguments of no value: "kind", a filter's, then each kind's own. */
static void live_arguments_init(live_arguments *a) {
    const sql_kind *kind;
    memset(a, 0, sizeof *a);
    a->names[a->count++] = "kind";
    live_arguments_take_names(a, &live_filter_arguments);
    for (size_t i = 0; (kind = sql_kind_at(i)) != NULL; i++) {
        if (kind->table_arguments != NULL) {
            live_arguments_take_names(a, kind->table_arguments);
        }
    }
}

/* The value of the argument called name, or NULL when it was not given. */
static sqlite3_value *live_argument(const live_arguments *a, const char *name) {
    for (size_t i = 0; i < a->count; i++) {
        if (strcmp(a->names[i], name) == 0) {
            return a->values[i];
        }
    }
    return NULL;
}

/* Frees the values of a. */
static void live_arguments_free(live_arguments *a) {
    for (size_t i = 0; i < a->count; i++) {
        sqlite3_value_free(a->values[i]);
    }
}

/* The names a table takes, for the message of an unknown one: "kind, n and p, or for kind =
** 'countmin' epsilon, delta and update". */
static char *live_arguments_listed(void) {
    sqlite3_str *s = sqlite3_str_new(NULL);
    const sql_kind *kind;
    sqlite3_str_appendall(s, "kind, n and p");
    for (size_t i = 0; (kind = sql_kind_at(i)) != NULL; i++) {
        const sql_table_arguments *set = kind->table_arguments;
        for (int j = 0; set != NULL && j < SQL_TABLE_ARGUMENTS_MAX && set->names[j] != NULL; j++) {
            int last = j + 1 == SQL_TABLE_ARGUMENTS_MAX || set->names[j + 1] == NULL;
            if (j == 0) {
                sqlite3_str_appendf(s, ", or for kind = '%s' ", kind->kind->name);
            }
            sqlite3_str_appendf(s, "%s%s", j == 0 ? "" : last ? " and " : ", ", set->names[j]);
        }
    }
    return sqlite3_str_finish(s);
}

/* Parses the arguments "name = value" of CREATE into a. SQLITE_OK, or an error in *error. */
static int live_arguments_read(sqlite3 *db, const char *table, int argc, const char *const *argv,
                               live_arguments *a, char **error) {
    live_arguments_init(a);
    for (int i = 0; i < argc; i++) {
        const char *argument = argv[i], *equals = strchr(argument, '=');
        if (equals == NULL) {
            *error = sqlite3_mprintf("%s: the arguments are name = value, got %s", table, argument);
            return SQLITE_ERROR;
        }
        size_t name_length = (size_t)(equals - argument);
        while (name_length > 0 &&
               (argument[name_length - 1] == ' ' || argument[name_length - 1] == '\t')) {
            name_length--;
        }
        const char *value = equals + 1;
        value += strspn(value, " \t");
        size_t which = 0;
        while (which < a->count &&
               !(strlen(a->names[which]) == name_length &&
                 sqlite3_strnicmp(a->names[which], argument, (int)name_length) == 0)) {
            which++;
        }
        if (which == a->count || a->values[which] != NULL) {
            char *listed = which == a->count ? live_arguments_listed() : NULL;
            *error = which == a->count
                         ? sqlite3_mprintf("%s: unknown argument '%.*s'; the arguments are %s",
                                           table, (int)name_length, argument, listed)
                         : sqlite3_mprintf("%s: argument '%.*s' given twice", table,
                                           (int)name_length, argument);
            sqlite3_free(listed);
            return *error == NULL ? SQLITE_NOMEM : SQLITE_ERROR;
        }
        char *trimmed = sqlite3_mprintf("%s", value);
        if (trimmed == NULL) {
            return SQLITE_NOMEM;
        }
        for (size_t end = strlen(trimmed);
             end > 0 && (trimmed[end - 1] == ' ' || trimmed[end - 1] == '\t'); end--) {
            trimmed[end - 1] = '\0';
        }
        int rc = live_argument_value(db, trimmed, &a->values[which]);
        sqlite3_free(trimmed);
        if (rc != SQLITE_OK) {
            return rc;
        }
        a->given++;
    }
    return SQLITE_OK;
}

/* The kind text names: by its name alone, or, for a kind that takes a variant (read_variant:
** 'parquet INT32'), by its name, a space and a variant, which bloom_empty then reads. NULL if
** none. */
static const filter_kind *live_kind_named(const char *text) {
    const filter_kind *named = filter_kind_named(text), *kind;
    for (size_t i = 0; named == NULL && (kind = filter_kind_at(i)) != NULL; i++) {
        size_t length = strlen(kind->name);
        if (sql_kind_of(kind)->read_variant != NULL &&
            sqlite3_strnicmp(text, kind->name, (int)length) == 0 && text[length] == ' ') {
            named = kind;
        }
    }
    return named;
}

/* The arguments a table of the kind that a names (a filter's when it names none) takes. */
static const sql_table_arguments *live_arguments_set(const live_arguments *a) {
    sqlite3_value *kind = live_argument(a, "kind");
    const char *text = kind != NULL && sqlite3_value_type(kind) == SQLITE_TEXT
                           ? (const char *)sqlite3_value_text(kind)
                           : NULL;
    const filter_kind *named = text != NULL ? live_kind_named(text) : NULL;
    const sql_table_arguments *set = named != NULL ? sql_kind_of(named)->table_arguments : NULL;
    return set != NULL ? set : &live_filter_arguments;
}

/* Whether set takes the argument called name. */
static int live_arguments_take(const sql_table_arguments *set, const char *name) {
    for (int i = 0; i < SQL_TABLE_ARGUMENTS_MAX && set->names[i] != NULL; i++) {
        if (strcmp(set->names[i], name) == 0) {
            return 1;
        }
    }
    return strcmp(name, "kind") == 0;
}

/* Checks the kind argument: TEXT naming a kind that adds keys where it is stored. */
static int live_arguments_check_kind(const char *table, const live_arguments *a, char **error) {
    sqlite3_value *given = live_argument(a, "kind");
    int type = given != NULL ? sqlite3_value_type(given) : SQLITE_NULL;
    const char *text = type == SQLITE_TEXT ? (const char *)sqlite3_value_text(given) : NULL;
    const filter_kind *named = text != NULL ? live_kind_named(text) : NULL, *kind;
    const sql_kind *other;
    if (given == NULL || (named != NULL && filter_kind_can(named, FILTER_ADDS_IN_PLACE))) {
        return SQLITE_OK;
    }
    sqlite3_str *s = sqlite3_str_new(NULL);
    size_t last = 0;
    for (size_t i = 0; (kind = filter_kind_at(i)) != NULL; i++) {
        last = filter_kind_can(kind, FILTER_ADDS_IN_PLACE) ? i : last;
    }
    sqlite3_str_appendf(s, "%s: kind must be ", table);
    for (size_t i = 0; (kind = filter_kind_at(i)) != NULL; i++) {
        if (filter_kind_can(kind, FILTER_ADDS_IN_PLACE)) {
            sqlite3_str_appendf(s, "%s'%s'", i == 0 ? "" : i == last ? " or " : ", ", kind->name);
        }
    }
    sqlite3_str_appendall(s, ", got ");
    sql_append_value(s, given);
    if (named != NULL) {
        char why[FILTER_WHY_MAX];
        filter_kind_refusal(named, FILTER_ADDS_IN_PLACE, why);
        sqlite3_str_appendf(s, ": %s", why);
    } else if ((other = sql_kind_other_named(given)) != NULL) {
        sqlite3_str_appendf(s, "; that kind is named '%s'", other->kind->name);
    }
    *error = sqlite3_str_finish(s);
    return *error == NULL ? SQLITE_NOMEM : SQLITE_ERROR;
}

/* Makes the template of the table's filters from a: the empty filter of the SELECT its kind's
** arguments name (bloom_empty, or a kind's own), whose message (its function's name replaced by
** the table's) is the error. */
static int live_template_make(sqlite3 *db, const char *table, const live_arguments *a,
                              live_template *out, char **error) {
    const sql_table_arguments *set = live_arguments_set(a);
    const char *missing = NULL, *misplaced = NULL;
    for (int i = 0; missing == NULL && i < set->required; i++) {
        missing = live_argument(a, set->names[i]) == NULL ? set->names[i] : NULL;
    }
    for (size_t i = 0; misplaced == NULL && i < a->count; i++) {
        misplaced =
            a->values[i] != NULL && !live_arguments_take(set, a->names[i]) ? a->names[i] : NULL;
    }
    memset(out, 0, sizeof *out);
    int rc = live_arguments_check_kind(table, a, error); /* first: the kind says what is missing */
    if (rc != SQLITE_OK) {
        return rc;
    }
    if (missing != NULL || misplaced != NULL) {
        *error = sqlite3_mprintf(
            missing != NULL ? "%s: argument %s is missing: a table of %s needs %s"
                            : "%s: argument %s is not for a table of %s, which takes %s",
            table, missing != NULL ? missing : misplaced, set->filters, set->listed);
        return SQLITE_ERROR;
    }
    if (set == &live_filter_arguments &&
        sql_looks_swapped(live_argument(a, "n"), live_argument(a, "p"))) {
        sqlite3_str *s = sql_capacity_error(table, live_argument(a, "n"), 0);
        sql_append_swapped(s, NULL);
        *error = sqlite3_str_finish(s);
        return *error == NULL ? SQLITE_NOMEM : SQLITE_ERROR;
    }
    sqlite3_stmt *stmt = NULL;
    rc = sqlite3_prepare_v2(db, set->empty_sql, -1, &stmt, NULL);
    for (int i = 0; rc == SQLITE_OK && i < SQL_TABLE_ARGUMENTS_MAX && set->names[i] != NULL; i++) {
        sqlite3_value *given = live_argument(a, set->names[i]);
        if (given != NULL) {
            sqlite3_bind_value(stmt, i + 1, given);
        }
    }
    if (rc == SQLITE_OK && sqlite3_step(stmt) == SQLITE_ROW) {
        const uint8_t *blob = sqlite3_column_blob(stmt, 0);
        uint64_t bytes = (uint64_t)sqlite3_column_bytes(stmt, 0), head = FILTER_HEADER_BYTES;
        for (uint64_t i = bytes; i > FILTER_HEADER_BYTES; i--) {
            if (blob[i - 1] != 0) {
                head = i;
                break;
            }
        }
        out->head = sqlite3_malloc64(head);
        if (out->head == NULL) {
            rc = SQLITE_NOMEM;
        } else {
            memcpy(out->head, blob, (size_t)head);
            out->head_bytes = head;
            out->bytes = bytes;
        }
    } else if (rc == SQLITE_OK) {
        const char *message = sqlite3_errmsg(db);
        size_t prefix = strlen(set->empty_function);
        rc = sqlite3_errcode(db);
        *error = sqlite3_mprintf("%s: %s", table,
                                 strncmp(message, set->empty_function, prefix) == 0 &&
                                         strncmp(message + prefix, ": ", 2) == 0
                                     ? message + prefix + 2
                                     : message);
    }
    sqlite3_finalize(stmt);
    return rc;
}

/* The template's kind must add keys where a filter is stored. */
static int live_template_check(const char *table, const live_template *t, char **error) {
    filter_view view;
    char why[FILTER_WHY_MAX];
    if (filter_open_header(t->head, t->bytes, &view, why) != FILTER_OK) {
        *error = sqlite3_mprintf("%s: %s", table, why);
        return SQLITE_ERROR;
    }
    if (!filter_kind_can(view.kind, FILTER_ADDS_IN_PLACE)) {
        filter_kind_refusal(view.kind, FILTER_ADDS_IN_PLACE, why);
        *error = sqlite3_mprintf("%s: %s; a live table keeps filters that do", table, why);
        return SQLITE_ERROR;
    }
    return SQLITE_OK;
}

int live_template_from_arguments(sqlite3 *db, const char *table, int argc, const char *const *argv,
                                 live_template *out, char **error) {
    live_arguments a;
    memset(out, 0, sizeof *out);
    int rc = live_arguments_read(db, table, argc, argv, &a, error);
    if (rc == SQLITE_OK && a.given > 0) {
        rc = live_template_make(db, table, &a, out, error);
    }
    if (rc == SQLITE_OK && out->head != NULL) {
        rc = live_template_check(table, out, error);
    }
    live_arguments_free(&a);
    if (rc != SQLITE_OK) {
        sqlite3_free(out->head);
        memset(out, 0, sizeof *out);
    }
    return rc;
}
