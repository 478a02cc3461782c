/* What zhi-sandbox.c and token.c share. */
#ifndef ZHI_SANDBOX_H
#define ZHI_SANDBOX_H
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#define MAX_WRITE 8

struct options {
  DWORD max_processes;
  DWORD grace_ms;
  int restricted;
  int writes;
  const wchar_t *write[MAX_WRITE];
  wchar_t *command;
};

/* Say the failed step on the status pipe and exit before the command ran. */
void fail_step(unsigned step);
HANDLE restricted_token(const struct options *o, PSID *sid);
void grant_writes(const struct options *o, PSID sid);
void revoke_writes(const struct options *o, PSID sid);

#endif
