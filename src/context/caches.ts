import type { ApiClient } from '../api/http.js';
import { loadCodeNames } from '../api/reference.js';
import { readCached, writeCached } from '../config/cache.js';
import type { EtagCache } from '../config/etags.js';
import { openKnownIds } from '../config/known-ids.js';
import { openReaderEtags } from '../config/reader-etags.js';
import type { KnownIds } from '../config/known-ids.js';
import type { CodeNames } from '../io/format.js';

/** What a command keeps per target (one service, or the --sandbox database), each opened on first use. */
export interface TargetCaches {
  etags(): Promise<EtagCache>;
  /** Parcel ids this target has shown recently (for id prefixes). */
  knownIds(): Promise<KnownIds>;
  /**
   * Every parcel id a prefix resolves against (src/args/parcel-id.ts): those shown recently and
   * those with a cached ETag. A terminal shortens ids to prefixes unique in this same set.
   */
  prefixIds(): Promise<string[]>;
  codeNames(): Promise<CodeNames>;
}

export function targetCaches(init: {
  env: NodeJS.ProcessEnv;
  targetKey: () => Promise<string | undefined>;
  api: () => Promise<ApiClient>;
  /** A dry run sends nothing, so it cannot look names up. */
  dryRun: boolean;
  signal: AbortSignal;
}): TargetCaches {
  const { env, targetKey, api } = init;
  let etagsPromise: Promise<EtagCache> | undefined;
  let knownIdsPromise: Promise<KnownIds> | undefined;
  let namesPromise: Promise<CodeNames> | undefined;

  /** The store of this target; without a base URL there is none, and api() raises the usage error saying how to set one. */
  const open = async <T>(store: (env: NodeJS.ProcessEnv, target: string) => T): Promise<T> => {
    const cacheTarget = await targetKey();
    if (cacheTarget !== undefined) return store(env, cacheTarget);
    await api();
    throw new Error('unreachable: api() refuses a missing base URL');
  };

  const etags = (): Promise<EtagCache> => {
    etagsPromise ??= open((env, target) => openReaderEtags(env, target));
    return etagsPromise;
  };
  const knownIds = (): Promise<KnownIds> => {
    knownIdsPromise ??= open(openKnownIds);
    return knownIdsPromise;
  };

  return {
    etags,
    knownIds,
    async prefixIds() {
      const [known, cache] = await Promise.all([knownIds(), etags()]);
      const [shown, cached] = await Promise.all([known.all(), cache.ids()]);
      return [...new Set([...shown, ...cached])];
    },
    codeNames() {
      namesPromise ??= (async () => {
        const cacheTarget = await targetKey();
        // With no service to ask (no base URL), the spec's own meanings serve.
        if (cacheTarget === undefined) return {};
        return loadCodeNames({
          cache: {
            read: (name, maxAgeS) => readCached<CodeNames>(env, cacheTarget, name, maxAgeS),
            write: (name, names) => writeCached(env, cacheTarget, name, names),
          },
          client: init.dryRun ? undefined : api,
          signal: init.signal,
        });
      })();
      return namesPromise;
    },
  };
}
