// SPDX-License-Identifier: GPL-2.0
/*
 * spatch: the spatch program, its command line, and what a failed run of
 * it said.  The processes themselves are started by runner.c.
 */
#include <ctype.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cocci/cocci_impl.h"
#include "lib/kernel.h"

const char *spatch_prog(const struct cocci_opts *opts)
{
	const char *s = opts->spatch;

	if (!s || !*s)
		s = getenv("SPATCH");
	return s && *s ? s : "spatch";
}

/*
 * spatch is an OCaml program, and with the runtime's default space
 * overhead (80) its major collector took about a third of a cast-rule
 * group's time (caml_page_table_lookup, the marking, at the top of a
 * profile): on 6.12's 63-file group 20-23 s user, 15.5 s with 200, at
 * the same peak memory (183 against 193 MB); 400 and 1000 were faster
 * again but took 350-380 MB.  The collector's settings change no
 * output.  A user's own OCAMLRUNPARAM (or CAMLRUNPARAM) is left as it is.
 */
static const char ocaml_gc[] = "OCAMLRUNPARAM=o=200";
static char **env;
static pthread_once_t env_once = PTHREAD_ONCE_INIT;

static void env_make(void)
{
	extern char **environ;
	size_t n;

	if (getenv("OCAMLRUNPARAM") || getenv("CAMLRUNPARAM"))
		return;
	for (n = 0; environ[n]; n++)
		;
	env = xmalloc((n + 2) * sizeof(*env));
	memcpy(env, environ, n * sizeof(*env));
	env[n] = (char *)ocaml_gc;
	env[n + 1] = NULL;
}

char *const *spatch_env(void)
{
	pthread_once(&env_once, env_make);
	return env;
}

/* An executable regular file whose first bytes say ELF (a program, not a script). */
static int elf_program(const char *path)
{
	struct stat st;
	char head[4];
	ssize_t n;
	int fd;

	if (stat(path, &st) || !S_ISREG(st.st_mode) || access(path, X_OK))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, head, sizeof(head));
	close(fd);
	return n == 4 && !memcmp(head, "\177ELF", 4);
}

char *spatch_python(void)
{
	const char *env = getenv("PTRGUARD_PYTHON");
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL, *found = NULL;

	/*
	 * spatch runs in the tree's root, not here: a path with a slash is
	 * made absolute (a bare name is looked up on PATH by spatch).
	 */
	if (env) {
		if (!*env)
			return NULL;
		found = strchr(env, '/') ? realpath(env, NULL) : NULL;
		return found ? found : xstrdup(env);
	}
	if (!path)
		return NULL;
	/*
	 * spatch looks for "python3" on PATH, and starts it to find its
	 * library.  A python3 that is a script (the shims of pyenv) cost
	 * 0.25 s of each spatch process here: take the first ELF program.
	 */
	copy = xstrdup(path);
	for (dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
		char *cand = xasprintf("%s/python3", *dir ? dir : ".");

		if (elf_program(cand))
			found = realpath(cand, NULL);
		free(cand);
	}
	free(copy);
	return found;
}

int spatch_found(const char *prog)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL, *cand;
	int ok = 0;

	if (strchr(prog, '/'))
		return !access(prog, X_OK);
	if (!path)
		return 0;
	copy = xstrdup(path);
	for (dir = strtok_r(copy, ":", &save); dir && !ok;
	     dir = strtok_r(NULL, ":", &save)) {
		cand = xasprintf("%s/%s", *dir ? dir : ".", prog);
		ok = !access(cand, X_OK) && !cocci_is_dir(cand);
		free(cand);
	}
	free(copy);
	return ok;
}

char *spatch_last_line(const char *path)
{
	size_t len;
	char *buf = read_file(path, SIZE_MAX, &len), *end, *start, *line;

	if (!buf)
		return xstrdup("(no output)");
	end = buf + len;
	while (end > buf && isspace((unsigned char)end[-1]))
		end--;
	start = end;
	while (start > buf && start[-1] != '\n')
		start--;
	line = start == end ? xstrdup("(no output)") :
		xstrndup(start, (size_t)(end - start));
	free(buf);
	return line;
}

char *spatch_last_handled(const char *path)
{
	size_t len;
	char *buf = read_file(path, SIZE_MAX, &len), *p, *found = NULL;

	if (!buf)
		return NULL;
	for (p = buf; (p = strstr(p, "HANDLING: ")); p += 10)
		if (p == buf || p[-1] == '\n')
			found = p + 10;
	if (found)
		found = xstrndup(found, strcspn(found, "\n"));
	free(buf);
	return found;
}


const char cocci_macro_file[] = "ptrguard-macros.h";

void spatch_argv(const struct cocci_opts *opts, const char *root, const struct rule *r,
		 const char *list, struct strvec *av)
{
	size_t i;

	strvec_push(av, xstrdup(spatch_prog(opts)));
	strvec_push(av, xstrdup("-D"));
	strvec_push(av, xstrdup("ptrguard"));
	strvec_push(av, xstrdup("--quiet"));
	strvec_push(av, xstrdup("--no-show-diff"));
	strvec_push(av, xstrdup("--verbose-parsing"));
	/*
	 * The files are prefiltered already: no second token scan in spatch
	 * (which also tries "git grep" once per file group).
	 */
	strvec_push(av, xstrdup("--no-scanner"));
	if (opts->python) {
		strvec_push(av, xstrdup("--python"));
		strvec_push(av, xstrdup(opts->python));
	}
	strvec_push(av, xstrdup("--cocci-file"));
	strvec_push(av, xstrdup(r->path));
	/* the kernel macros that spatch's own standard.h lacks, next to the rule */
	{
		/* a rule given the tree's wrappers is in the run's temporary directory */
		char *dir = r->tmp ? xasprintf("%s/", opts->rules_dir) : xstrdup(r->path);
		char *slash = strrchr(dir, '/'), *mf;

		if (slash)
			*slash = '\0';
		mf = xasprintf("%s/%s", slash ? dir : ".", cocci_macro_file);
		if (!access(mf, R_OK)) {
			strvec_push(av, xstrdup("--macro-file"));
			strvec_push(av, mf);
		} else {
			free(mf);
		}
		free(dir);
	}
	for (i = 0; i < r->options.nr; i++)
		strvec_push(av, xstrdup(r->options.v[i]));
	/*
	 * The include path of scripts/coccicheck, for rules that read
	 * headers: the tree's, or for out-of-tree sources the kernel's
	 * (absolute) after the module's own directory.
	 */
	if (kernel_outside()) {
		strvec_push(av, xstrdup("-I"));
		strvec_push(av, xstrdup("."));
	}
	for (i = 0; kernel_include_dirs[i] && (!kernel_outside() || kernel_dir()); i++) {
		strvec_push(av, xstrdup("-I"));
		strvec_push(av, kernel_outside() ?
			    xasprintf("%s/%s", kernel_dir(), kernel_include_dirs[i]) :
			    xstrdup(kernel_include_dirs[i]));
	}
	/* and its forced includes, when the tree has them */
	for (i = 0; kernel_forced_includes[i]; i++) {
		const char *base = kernel_outside() ? kernel_dir() : root;
		char *path = base ? xasprintf("%s/%s", base, kernel_forced_includes[i]) : NULL;

		if (path && !access(path, R_OK)) {
			strvec_push(av, xstrdup("--include"));
			strvec_push(av, kernel_outside() ? xstrdup(path) :
				    xstrdup(kernel_forced_includes[i]));
		}
		free(path);
	}
	strvec_push(av, xstrdup("--file-groups"));
	strvec_push(av, xstrdup(list));
}
