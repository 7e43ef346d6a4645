import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef, type ReactNode } from 'react';
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
  /** Whether the confirm dialog shows: a screen moves focus only once it is gone, since the
   * dialog hands focus back to whatever opened it as it closes. */
  open: boolean;
} {
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });
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
        notifyMoved: (_, { to }) => latest.current.onMoved(to),
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
  return {
    allowed: allowedTargets(state.context.rules, state.context.status, state.context.excluded),
    choose: (to) => actor.send({ type: 'move.choose', to }),
    dialog,
    open,
  };
}
