import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { fromPromise } from 'xstate';
import {
  allowedTargets,
  statusMoveMachine,
  type MoveRefusal,
  type MoveRule,
} from '#machines/status-move.machine.ts';
import { ConfirmDialogView } from './confirm-dialog.tsx';

export interface StatusMoveOptions {
  status: string;
  /** The service's rules; null until read. */
  rules: readonly MoveRule[] | null;
  excluded?: readonly string[];
  /** Calls the service; answers the new status, rejects with the client's ApiError. */
  move: (to: string) => Promise<string>;
  onMoved: (to: string) => void;
  /**
   * Where focus goes after a move, once the confirm dialog is gone: the dialog hands focus back to
   * the control that opened it as it unmounts, and that control may be gone or disabled now (the
   * move it offered is made). Without it, focus would end on the page body.
   */
  focusAfterMove: () => HTMLElement | null | undefined;
  /** A refusal that stays (403, 404, 409): e.g. read the record again, or show the one `error` carries. */
  onRefused: (refusal: MoveRefusal, error: unknown) => void;
  /** The refusal in the user's words; `error` is the call's rejection, for its details. */
  reason: (refusal: MoveRefusal, error: unknown, to: string) => string;
  dialog: (to: string) => {
    title: string;
    message: string;
    confirmLabel: string;
    tone?: 'primary' | 'danger';
  };
}

/**
 * A status move driven by `statusMoveMachine`: the moves the rules allow, and the confirm dialog
 * that runs the chosen one and shows a refusal in the user's words.
 */
export function useStatusMove(options: StatusMoveOptions): {
  allowed: string[];
  choose: (to: string) => void;
  dialog: ReactNode;
} {
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });
  const [moves, setMoves] = useState(0);
  // The rejection of the last call: its details (the record it names) make the reason.
  const lastError = useRef<unknown>(null);
  const actor = useActorRef(
    statusMoveMachine.provide({
      actors: {
        moveStatus: fromPromise<string, { to: string }>(({ input }) =>
          latest.current.move(input.to).catch((error: unknown) => {
            lastError.current = error;
            throw error;
          }),
        ),
      },
      actions: {
        notifyMoved: (_, { to }) => {
          latest.current.onMoved(to);
          setMoves((n) => n + 1);
        },
        notifyRefused: (_, refusal) => latest.current.onRefused(refusal, lastError.current),
      },
    }),
    {
      input: {
        status: options.status,
        rules: options.rules ?? [],
        excluded: options.excluded ?? [],
      },
    },
  );
  const { status, rules } = options;
  useEffect(() => actor.send({ type: 'record.changed', status }), [actor, status]);
  useEffect(() => {
    if (rules) actor.send({ type: 'rules.loaded', rules });
  }, [actor, rules]);

  const state = useSelector(actor, (s) => s);
  const { target, refusal } = state.context;
  const moving = state.matches('moving');
  const settled = state.matches('refused') || state.matches('failed');
  const texts = target === null ? null : options.dialog(target);
  const open = texts !== null && !state.matches('ready');
  const dialog = (
    <ConfirmDialogView
      open={open}
      busy={moving}
      title={texts?.title ?? ''}
      message={texts?.message ?? ''}
      error={
        settled && refusal !== null && target !== null
          ? options.reason(refusal, lastError.current, target)
          : null
      }
      confirmLabel={texts?.confirmLabel}
      tone={texts?.tone}
      canCancel={!moving}
      canConfirm={state.can({ type: 'move.confirm' })}
      onCancel={() => actor.send({ type: settled ? 'move.dismiss' : 'move.cancel' })}
      onClose={() => {
        if (!moving) actor.send({ type: settled ? 'move.dismiss' : 'move.cancel' });
      }}
      onConfirm={() => actor.send({ type: 'move.confirm' })}
    />
  );
  // After the commit that closed the dialog (whose focus return runs as it unmounts), so the
  // order holds on a slow machine too, not only when a frame happens to come late enough.
  useEffect(() => {
    if (moves === 0 || open) return;
    const frame = requestAnimationFrame(() => latest.current.focusAfterMove()?.focus());
    return () => cancelAnimationFrame(frame);
  }, [moves, open]);
  return {
    allowed: allowedTargets(state.context.rules, state.context.status, state.context.excluded),
    choose: (to) => actor.send({ type: 'move.choose', to }),
    dialog,
  };
}
