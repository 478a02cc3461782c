/*
 * zhi-sandbox.exe: runs one command line for zhi's shell tool on Windows inside a Job Object, so
 * that the command and everything it starts end together, at once, when zhi asks, when zhi goes
 * away, or when this helper is killed (JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE). With --restricted it
 * also starts the command under a restricted token that may write only where a temporary ACE for
 * its own SID allows it (the --write folders).
 *
 *   zhi-sandbox.exe [--max-processes N] [--grace MS] [--restricted [--write DIR]...] -- CMDLINE
 *
 * CMDLINE is everything after " -- ", passed to CreateProcessW as it is (zhi gives
 * `"C:\Windows\system32\cmd.exe" /d /s /c "…"`). The command gets NUL as its standard input and
 * this helper's standard output and error.
 *
 * Control (standard input, a pipe from zhi): any byte, end of file or error ends the job. zhi
 * never writes anything else, and when zhi dies its end closes, so the job ends with it.
 *
 * Status (file descriptor 3 when zhi hands one over, found in STARTUPINFO.lpReserved2 the way the
 * C runtime and libuv pass descriptors): one line per event, ASCII:
 *   run PID                 the command started inside the job
 *   exit CODE LEFT          the command's first process ended with CODE; LEFT processes it left
 *                           behind were ended after the grace period
 *   stop LEFT               ended on request; LEFT processes still counted after the wait (0:
 *                           checked, nothing remains)
 *   error STEP WIN32ERROR   setting up failed; the command did not run
 * The helper's own exit code is the command's, or 1 after a stop, or 0x7A480000 + step after an
 * error before the command ran.
 *
 * Plain Win32, no C runtime: built with -nostdlib (scripts/build-win-helper.mjs).
 */
#include "zhi-sandbox.h"

#define ERROR_BASE 0x7A480000u

static HANDLE status_pipe = INVALID_HANDLE_VALUE;

static int wlen(const wchar_t *s) {
  int n = 0;
  while (s[n]) n++;
  return n;
}

static int weq(const wchar_t *a, int alen, const wchar_t *b) {
  int i = 0;
  for (; i < alen && b[i]; i++)
    if (a[i] != b[i]) return 0;
  return i == alen && !b[i];
}

/* Decimal of an unsigned value into buf (no C runtime); returns the length. */
static int udec(char *buf, unsigned long v) {
  char tmp[16];
  int n = 0, i = 0;
  do {
    tmp[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  while (n) buf[i++] = tmp[--n];
  return i;
}

/* "WORD a b\n" on the status pipe (nothing when zhi gave none). */
static void say(const char *word, unsigned long a, int two, unsigned long b) {
  char line[64];
  int n = 0;
  DWORD wrote;
  if (status_pipe == INVALID_HANDLE_VALUE) return;
  while (*word) line[n++] = *word++;
  line[n++] = ' ';
  n += udec(line + n, a);
  if (two) {
    line[n++] = ' ';
    n += udec(line + n, b);
  }
  line[n++] = '\n';
  WriteFile(status_pipe, line, (DWORD)n, &wrote, NULL);
}

static void fail(unsigned step) {
  say("error", step, 1, GetLastError());
  ExitProcess(ERROR_BASE + step);
}

/* For token.c. */
void fail_step(unsigned step) { fail(step); }

/* Descriptor 3 from the C runtime's hand-over block: int count, count flag bytes, count handles. */
static void find_status_pipe(void) {
  STARTUPINFOW si;
  GetStartupInfoW(&si);
  if (!si.lpReserved2 || si.cbReserved2 < sizeof(int)) return;
  int count = *(int *)si.lpReserved2;
  if (count < 4 || si.cbReserved2 < sizeof(int) + count * (1 + sizeof(HANDLE))) return;
  unsigned char *flags = si.lpReserved2 + sizeof(int);
  HANDLE h;
  CopyMemory(&h, flags + count + 3 * sizeof(HANDLE), sizeof(HANDLE));
  if (!flags[3] || h == NULL || h == INVALID_HANDLE_VALUE) return;
  status_pipe = h;
  /* The command must not inherit it: what it leaves running would keep zhi's end open. */
  SetHandleInformation(h, HANDLE_FLAG_INHERIT, 0);
}

static DWORD active_processes(HANDLE job) {
  JOBOBJECT_BASIC_ACCOUNTING_INFORMATION info;
  if (!QueryInformationJobObject(job, JobObjectBasicAccountingInformation, &info, sizeof info, NULL))
    return 0xFFFFFFFFu;
  return info.ActiveProcesses;
}

/* Wait until the job is empty or ms have passed; the processes still counted. */
static DWORD drain(HANDLE job, DWORD ms) {
  DWORD left = active_processes(job);
  for (DWORD waited = 0; left && waited < ms; waited += 20) {
    Sleep(20);
    left = active_processes(job);
  }
  return left;
}

static HANDLE stop_event;

/* The control pipe: whatever arrives (a byte, end of file, an error) means stop. */
static DWORD WINAPI watch_control(LPVOID unused) {
  char byte;
  DWORD got;
  (void)unused;
  ReadFile(GetStdHandle(STD_INPUT_HANDLE), &byte, 1, &got, NULL);
  SetEvent(stop_event);
  return 0;
}


/* The next argument of the helper's own command line (quotes allowed, no escapes); NULL at the end. */
static wchar_t *next_arg(wchar_t **p) {
  wchar_t *s = *p, *out;
  while (*s == L' ' || *s == L'\t') s++;
  if (!*s) return NULL;
  out = s;
  if (*s == L'"') {
    out = ++s;
    while (*s && *s != L'"') s++;
  } else {
    while (*s && *s != L' ' && *s != L'\t') s++;
  }
  if (*s) *s++ = 0;
  *p = s;
  return out;
}

static DWORD number(const wchar_t *s) {
  DWORD v = 0;
  while (s && *s >= L'0' && *s <= L'9') v = v * 10 + (DWORD)(*s++ - L'0');
  return v;
}

static void parse(wchar_t *line, struct options *o) {
  wchar_t *p = line, *a;
  /* Skip the program's own name (quoted or not). */
  next_arg(&p);
  while ((a = next_arg(&p)) != NULL) {
    if (weq(a, wlen(a), L"--")) {
      while (*p == L' ' || *p == L'\t') p++;
      o->command = p;
      return;
    }
    if (weq(a, wlen(a), L"--max-processes")) o->max_processes = number(next_arg(&p));
    else if (weq(a, wlen(a), L"--grace")) o->grace_ms = number(next_arg(&p));
    else if (weq(a, wlen(a), L"--restricted")) o->restricted = 1;
    else if (weq(a, wlen(a), L"--write") && o->writes < MAX_WRITE) {
      if ((o->write[o->writes++] = next_arg(&p)) == NULL) break;
    } else break;
  }
  SetLastError(ERROR_INVALID_PARAMETER);
  fail(1);
}


static HANDLE make_job(const struct options *o) {
  HANDLE job = CreateJobObjectW(NULL, NULL);
  JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits;
  if (!job) fail(2);
  ZeroMemory(&limits, sizeof limits);
  /* No breakaway allowed: everything the command starts stays in the job and ends with it. */
  limits.BasicLimitInformation.LimitFlags =
      JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE | JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION;
  if (o->max_processes) {
    limits.BasicLimitInformation.LimitFlags |= JOB_OBJECT_LIMIT_ACTIVE_PROCESS;
    limits.BasicLimitInformation.ActiveProcessLimit = o->max_processes;
  }
  if (!SetInformationJobObject(job, JobObjectExtendedLimitInformation, &limits, sizeof limits)) fail(3);
  return job;
}

static HANDLE inheritable(HANDLE h) {
  if (h && h != INVALID_HANDLE_VALUE) SetHandleInformation(h, HANDLE_FLAG_INHERIT, HANDLE_FLAG_INHERIT);
  return h;
}

static PROCESS_INFORMATION start(struct options *o, HANDLE job, HANDLE token) {
  STARTUPINFOW si;
  PROCESS_INFORMATION pi;
  SECURITY_ATTRIBUTES sa = {sizeof sa, NULL, TRUE};
  HANDLE nul = CreateFileW(L"NUL", GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, &sa, OPEN_EXISTING, 0, NULL);
  BOOL ok;
  ZeroMemory(&si, sizeof si);
  si.cb = sizeof si;
  si.dwFlags = STARTF_USESTDHANDLES;
  si.hStdInput = nul;
  si.hStdOutput = inheritable(GetStdHandle(STD_OUTPUT_HANDLE));
  si.hStdError = inheritable(GetStdHandle(STD_ERROR_HANDLE));
  /* The control pipe stays the helper's own. */
  SetHandleInformation(GetStdHandle(STD_INPUT_HANDLE), HANDLE_FLAG_INHERIT, 0);
  /* Suspended until it is in the job: nothing it starts can escape in between. */
  if (token)
    ok = CreateProcessAsUserW(token, NULL, o->command, NULL, NULL, TRUE, CREATE_SUSPENDED, NULL, NULL, &si, &pi);
  else
    ok = CreateProcessW(NULL, o->command, NULL, NULL, TRUE, CREATE_SUSPENDED, NULL, NULL, &si, &pi);
  if (!ok) fail(5);
  if (!AssignProcessToJobObject(job, pi.hProcess)) {
    DWORD err = GetLastError();
    TerminateProcess(pi.hProcess, 1);
    SetLastError(err);
    fail(6);
  }
  ResumeThread(pi.hThread);
  CloseHandle(pi.hThread);
  if (nul != INVALID_HANDLE_VALUE) CloseHandle(nul);
  return pi;
}

void __stdcall entry(void) {
  struct options o;
  HANDLE job, token = NULL, waits[2];
  PSID sid = NULL;
  PROCESS_INFORMATION pi;
  DWORD code = 1, which;
  ZeroMemory(&o, sizeof o);
  o.grace_ms = 500;
  find_status_pipe();
  parse(GetCommandLineW(), &o);
  job = make_job(&o);
  stop_event = CreateEventW(NULL, TRUE, FALSE, NULL);
  if (!stop_event || !CreateThread(NULL, 0, watch_control, NULL, 0, NULL)) fail(4);
  if (o.restricted) {
    token = restricted_token(&o, &sid);
    grant_writes(&o, sid);
  }
  pi = start(&o, job, token);
  say("run", pi.dwProcessId, 0, 0);
  waits[0] = pi.hProcess;
  waits[1] = stop_event;
  which = WaitForMultipleObjects(2, waits, FALSE, INFINITE);
  if (which == WAIT_OBJECT_0) {
    DWORD left;
    GetExitCodeProcess(pi.hProcess, &code);
    /* What it left running (`start /b …`) gets a moment to finish, then ends with the job. */
    left = drain(job, o.grace_ms);
    if (left) TerminateJobObject(job, 1);
    drain(job, 3000);
    say("exit", code, 1, left == 0xFFFFFFFFu ? 0 : left);
  } else {
    TerminateJobObject(job, 1);
    say("stop", drain(job, 3000), 0, 0);
    code = 1;
  }
  if (o.restricted) revoke_writes(&o, sid);
  ExitProcess(code);
}
