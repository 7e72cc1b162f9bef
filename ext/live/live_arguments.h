/*
** live_arguments.h: the arguments of CREATE VIRTUAL TABLE t USING bloom(...) (rule 26 (live
** table)), "name = value" each: kind, and n and p, or the arguments a kind's SQL side names for
** its own tables (its table_arguments: a sketch's epsilon, delta and update); and from them the
** template of the table's new filters, the empty filter of its kind.
*/
#ifndef LIVE_ARGUMENTS_H
#define LIVE_ARGUMENTS_H

#include "live_rows.h"

/* Makes the template of table's new filters from CREATE's argc arguments argv into *out, its
** head NULL when none is given (a table of loaded filters). SQLITE_OK, or an error with its
** message in *error. */
int live_template_from_arguments(sqlite3 *db, const char *table, int argc, const char *const *argv,
                                 live_template *out, char **error);

#endif /* LIVE_ARGUMENTS_H */
