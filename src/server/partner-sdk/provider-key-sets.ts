// Identity providers' key sets (JWKS), one per jwks_uri, shared by every token exchange that
// names it. jose's remote key set fetches, merges concurrent fetches and picks the key. When to
// fetch again follows jose's rules (createRemoteJWKSet's cacheMaxAge and cooldownDuration, at
// its defaults), measured here by pacing time instead of jose's `Date.now()`: a test twin's
// clock replaces Date, and a frozen or restored clock would hold a rotated key out for as long
// as it stood still or went back. Pacing time runs with the system's and jumps with advances.
import { createRemoteJWKSet, errors, type JWTVerifyGetKey } from "jose";
import { LRUCache } from "lru-cache";
import { CACHES } from "~/server/runtime/cache-registry.ts";
import { pacingTime } from "~/server/twin/twin-clock.ts";

/** How long a JWKS fetch may take before the provider counts as unreachable. */
const JWKS_TIMEOUT_MS = 5_000;
/** A kid the set does not hold fetches it again only this long after the last fetch (jose's default). */
const JWKS_COOLDOWN_MS = 30_000;
/** A set older than this is fetched again before use (jose's default cacheMaxAge). */
const JWKS_MAX_AGE_MS = CACHES.providerKeySets.ttlMs;

type KeySet = { remote: ReturnType<typeof createRemoteJWKSet>; fetchedAt: number | null };

const keySets = new LRUCache<string, KeySet>({ max: CACHES.providerKeySets.max });

/** The key set published at `jwksUri`, for jwtVerify. */
export function providerKeys(jwksUri: string): JWTVerifyGetKey {
  let set = keySets.get(jwksUri);
  if (!set) {
    // jose never refetches by itself after its first fetch: this module decides when.
    const remote = createRemoteJWKSet(new URL(jwksUri), { timeoutDuration: JWKS_TIMEOUT_MS, cooldownDuration: Infinity, cacheMaxAge: Infinity });
    set = { remote, fetchedAt: null };
    keySets.set(jwksUri, set);
  }
  const keys = set;
  return async (header, token) => {
    if (!isWithin(keys, JWKS_MAX_AGE_MS)) await refetch(keys);
    try {
      return await keys.remote(header, token);
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey) || isWithin(keys, JWKS_COOLDOWN_MS)) throw error;
      await refetch(keys);
      return keys.remote(header, token);
    }
  };
}

/** Whether the set was fetched less than `ms` ago; a clock that went back (a restored twin) counts as not. */
function isWithin(keys: KeySet, ms: number): boolean {
  if (keys.fetchedAt === null) return false;
  const age = pacingTime().getTime() - keys.fetchedAt;
  return age >= 0 && age < ms;
}

/** Fetches the set again (requests made meanwhile share the fetch); a failed fetch leaves the time, so the next use tries again. */
async function refetch(keys: KeySet): Promise<void> {
  await keys.remote.reload();
  keys.fetchedAt = pacingTime().getTime();
}
