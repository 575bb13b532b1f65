import { useEffect, useState } from 'react';
import { loadDraft, saveDraft } from '../../../lib/draft-store';
import { NO_EDITS, type Edits } from '@extraction-review/review-domain/fields/review-tree';
import {
  asDraft,
  draftFromServer,
  mergeEdits,
  sameEdits,
} from '@extraction-review/review-domain/queue/corrections-sync';
import { loadDraftBase, saveDraftBase } from './draft-base-store';

export interface DraftSeed {
  /** The server's version and corrections the review starts from. */
  version: number;
  server: Edits;
  /** What the review shows: the server's corrections with the local draft's unsent changes on top. */
  edits: Edits;
}

/**
 * Where an editable review starts: the server's corrections are the base, the draft kept in this
 * browser wins where it differs from what it was last known to match (its base), and whatever then
 * differs from the server is sent by the saver. Read once per mount, from the document as given then
 * (or when `enabled` first becomes true).
 */
export function useDraftSeed(
  draftKey: string,
  document: { version: number; corrections: Record<string, unknown> },
  /** False while the document is not the operator's yet (being taken): read once it is, from it then. */
  enabled = true,
): DraftSeed | null {
  const [seed, setSeed] = useState<DraftSeed | null>(null);
  const startFrom = () => ({ version: document.version, server: draftFromServer(document.corrections) });
  const [start, setStart] = useState(() => (enabled ? startFrom() : null));
  if (enabled && start === null) setStart(startFrom());
  useEffect(() => {
    if (start === null) return;
    let live = true;
    void readSeed(draftKey, start.version, start.server).then((read) => {
      if (live) setSeed(read);
    });
    return () => {
      live = false;
    };
  }, [draftKey, start]);
  return seed;
}

async function readSeed(key: string, version: number, server: Edits): Promise<DraftSeed> {
  try {
    const [local, base] = await Promise.all([loadDraft(key), loadDraftBase(key)]);
    // No base kept (it could not be written): the draft is laid over the server's corrections, its
    // values winning, none of the server's dropped.
    const edits = local ? mergeEdits(base ?? NO_EDITS, local, server, 'mine') : server;
    await saveDraftBase(key, server);
    if (local && !sameEdits(local, edits)) await saveDraft(key, asDraft(edits));
    return { version, server, edits };
  } catch {
    // Storage unavailable (private mode, blocked): the server's corrections alone.
    return { version, server, edits: server };
  }
}
