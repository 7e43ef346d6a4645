import { useCallback, useEffect, useRef, useState } from 'react';
import { createActor, fromPromise, type SnapshotFrom } from 'xstate';
import { requestClaimUpload, sendSignedUpload } from '#client/api/documents-client.ts';
import {
  documentUploadMachine,
  HEAD_BYTES,
  isSettled,
  type PresignedPost,
  type PresignRequest,
  type SendFileInput,
  type UploadFile,
  type UploadTarget,
} from '#machines/document-upload.machine.ts';

type UploadActor = ReturnType<typeof createActor<typeof documentUploadMachine>>;
export type UploadSnapshot = SnapshotFrom<typeof documentUploadMachine>;

export interface UploadItem {
  id: number;
  file: File;
  actor: UploadActor;
  snapshot: UploadSnapshot;
}

let nextId = 1;

/**
 * The uploads of one documents panel: one upload statechart per file, run by the real calls
 * (the signature from the document service, the file to the storage address with progress).
 * `onArrived` runs when the last running upload came to rest and at least one file arrived, so
 * the panel loads the list once per batch, not once per file.
 */
export function useDocumentUploads(
  accountIndex: number,
  target: UploadTarget,
  onArrived: () => void,
) {
  const [items, setItems] = useState<UploadItem[]>([]);
  const arrivedRef = useRef(onArrived);
  useEffect(() => {
    arrivedRef.current = onArrived;
  }, [onArrived]);
  const batchHadDone = useRef(false);

  const machine = documentUploadMachine.provide({
    actors: {
      // The file's first bytes, for the check of its type by content rather than by name.
      readHead: fromPromise<Uint8Array, UploadFile>(
        async ({ input }) =>
          new Uint8Array(await (input as File).slice(0, HEAD_BYTES).arrayBuffer()),
      ),
      requestUpload: fromPromise<PresignedPost, PresignRequest>(({ input, signal }) =>
        requestClaimUpload(accountIndex, input, signal),
      ),
      sendFile: fromPromise<void, SendFileInput>(({ input, signal }) =>
        sendSignedUpload(
          input,
          // The machine knows a file by name and size only; what the panel gave it is a File.
          input.file as File,
          (loaded, total) => input.progressTo.send({ type: 'upload.progress', loaded, total }),
          signal,
        ),
      ),
    },
  });

  const add = useCallback(
    (files: readonly File[]) => {
      const added = files.map((file) => {
        const id = nextId++;
        const actor = createActor(machine, { input: { file, target } });
        actor.subscribe((snapshot) => {
          setItems((all) => all.map((i) => (i.id === id ? { ...i, snapshot } : i)));
        });
        // Starting runs the checks of name and size at once: such a refused file is already
        // `rejected` here; its content is read next.
        actor.start();
        return { id, file, actor, snapshot: actor.getSnapshot() };
      });
      setItems((all) => [...all, ...added]);
    },
    // The machine closes over the account; a new account or claim makes new uploads.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [accountIndex, target.accountCode, target.policyCode, target.claimId],
  );

  // One list reload per batch: when nothing runs any more and something arrived.
  useEffect(() => {
    if (items.some((i) => i.snapshot.value === 'done')) batchHadDone.current = true;
    const running = items.some((i) => !isSettled(i.snapshot.value));
    if (!running && batchHadDone.current) {
      batchHadDone.current = false;
      arrivedRef.current();
      // Arrived files are in the list now; their rows here have done their job.
      setItems((all) => all.filter((i) => i.snapshot.value !== 'done'));
    }
  }, [items]);

  // Leaving the panel stops what still runs (their requests are aborted).
  const itemsRef = useRef(items);
  useEffect(() => {
    itemsRef.current = items;
  }, [items]);
  useEffect(() => () => itemsRef.current.forEach((i) => i.actor.stop()), []);

  const dismiss = useCallback((id: number) => {
    setItems((all) => all.filter((i) => i.id !== id || !isSettled(i.snapshot.value)));
  }, []);

  return { items, add, dismiss };
}
