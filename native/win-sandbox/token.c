/*
 * The restricted token of `zhi-sandbox.exe --restricted` (as Codex CLI's Windows sandbox makes
 * it): the caller's own token with every privilege but change-notify removed, the administrators
 * group made deny-only, and WRITE_RESTRICTED with three restricting SIDs — a SID made for this one
 * run, the logon session's SID and Everyone. A write then needs both the person's own access and
 * an ACE for one of those SIDs: the --write folders get a temporary ACE for the run's SID, removed
 * again at the end. An ACE left behind when the helper is killed names a SID no token will carry
 * again, so it grants nothing.
 *
 * Not verified on a real Windows (Wine does not enforce ACLs); opt-in (shell_sandbox: restricted).
 */
#include "zhi-sandbox.h"
#include <aclapi.h>

/* A SID for this run only: S-1-5-21-<time>-<counter>-<pid>-1000, never issued to an account. */
static PSID run_sid(void) {
  SID_IDENTIFIER_AUTHORITY nt = {SECURITY_NT_AUTHORITY};
  LARGE_INTEGER now;
  PSID sid = NULL;
  QueryPerformanceCounter(&now);
  if (!AllocateAndInitializeSid(&nt, 5, 21, GetTickCount() ^ now.HighPart, now.LowPart,
                                GetCurrentProcessId(), 1000, 0, 0, 0, &sid))
    fail_step(10);
  return sid;
}

/* The logon session's SID from the token's groups (NULL when there is none: Wine). */
static PSID logon_sid(HANDLE token) {
  static BYTE buf[4096];
  DWORD need = 0;
  TOKEN_GROUPS *groups = (TOKEN_GROUPS *)buf;
  if (!GetTokenInformation(token, TokenGroups, buf, sizeof buf, &need)) return NULL;
  for (DWORD i = 0; i < groups->GroupCount; i++)
    if ((groups->Groups[i].Attributes & SE_GROUP_LOGON_ID) == SE_GROUP_LOGON_ID) return groups->Groups[i].Sid;
  return NULL;
}

HANDLE restricted_token(const struct options *o, PSID *sid) {
  HANDLE self, token = NULL;
  SID_IDENTIFIER_AUTHORITY world = {SECURITY_WORLD_SID_AUTHORITY};
  SID_IDENTIFIER_AUTHORITY nt = {SECURITY_NT_AUTHORITY};
  PSID everyone = NULL, admins = NULL;
  SID_AND_ATTRIBUTES restricting[3], disable[1];
  DWORD n = 0;
  (void)o;
  if (!OpenProcessToken(GetCurrentProcess(),
                        TOKEN_DUPLICATE | TOKEN_QUERY | TOKEN_ASSIGN_PRIMARY | TOKEN_ADJUST_DEFAULT, &self))
    fail_step(11);
  *sid = run_sid();
  if (!AllocateAndInitializeSid(&world, 1, SECURITY_WORLD_RID, 0, 0, 0, 0, 0, 0, 0, &everyone) ||
      !AllocateAndInitializeSid(&nt, 2, SECURITY_BUILTIN_DOMAIN_RID, DOMAIN_ALIAS_RID_ADMINS, 0, 0, 0, 0, 0, 0,
                                &admins))
    fail_step(12);
  restricting[n].Sid = *sid;
  restricting[n++].Attributes = 0;
  restricting[n].Sid = logon_sid(self);
  restricting[n].Attributes = 0;
  if (restricting[n].Sid) n++;
  restricting[n].Sid = everyone;
  restricting[n++].Attributes = 0;
  disable[0].Sid = admins;
  disable[0].Attributes = 0;
  /* DISABLE_MAX_PRIVILEGE | LUA_TOKEN | WRITE_RESTRICTED */
  if (!CreateRestrictedToken(self, 0x1 | 0x4 | 0x8, 1, disable, 0, NULL, n, restricting, &token)) fail_step(13);
  CloseHandle(self);
  return token;
}

/* Add (or, with REVOKE_ACCESS, remove) the run SID's ACE on one folder, inherited below it. */
static DWORD set_ace(const wchar_t *path, PSID sid, ACCESS_MODE mode) {
  PACL old = NULL, updated = NULL;
  PSECURITY_DESCRIPTOR sd = NULL;
  EXPLICIT_ACCESSW ea;
  DWORD err = GetNamedSecurityInfoW(path, SE_FILE_OBJECT, DACL_SECURITY_INFORMATION, NULL, NULL, &old, NULL, &sd);
  if (err) return err;
  ZeroMemory(&ea, sizeof ea);
  ea.grfAccessPermissions = FILE_GENERIC_READ | FILE_GENERIC_WRITE | FILE_GENERIC_EXECUTE | DELETE;
  ea.grfAccessMode = mode;
  ea.grfInheritance = SUB_CONTAINERS_AND_OBJECTS_INHERIT;
  ea.Trustee.TrusteeForm = TRUSTEE_IS_SID;
  ea.Trustee.TrusteeType = TRUSTEE_IS_UNKNOWN;
  ea.Trustee.ptstrName = (LPWSTR)sid;
  err = SetEntriesInAclW(1, &ea, old, &updated);
  if (!err)
    err = SetNamedSecurityInfoW((LPWSTR)path, SE_FILE_OBJECT, DACL_SECURITY_INFORMATION, NULL, NULL, updated, NULL);
  if (updated) LocalFree(updated);
  if (sd) LocalFree(sd);
  return err;
}

void grant_writes(const struct options *o, PSID sid) {
  for (int i = 0; i < o->writes; i++) {
    DWORD err = set_ace(o->write[i], sid, GRANT_ACCESS);
    if (err) {
      for (int j = 0; j < i; j++) set_ace(o->write[j], sid, REVOKE_ACCESS);
      SetLastError(err);
      fail_step(14);
    }
  }
}

void revoke_writes(const struct options *o, PSID sid) {
  for (int i = 0; i < o->writes; i++) set_ace(o->write[i], sid, REVOKE_ACCESS);
}
