import { Dialog, DialogPanel, DialogTitle } from '#client/ui/dialog.tsx';
import { useActorRef, useSelector } from '@xstate/react';
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise, type ActorRefFrom } from 'xstate';
import { confirmDialogMachine } from '#machines/confirm-dialog.machine.ts';
import { workspaceSwitchMachine } from '#machines/workspace-switch.machine.ts';
import { listWorkspaces, switchWorkspace, type Workspace } from '#client/api/bff-client.ts';
import { SessionActorContext } from '#client/api/session-context.ts';
import { Alert } from '#client/ui/alert.tsx';
import { Button } from '#client/ui/button.tsx';
import { Spinner } from '#client/ui/spinner.tsx';

interface WorkspaceSwitchApi {
  workspaces: Workspace[] | undefined;
  failed: boolean;
  /** Asks for confirmation, then switches (spinner, switch call, reload). */
  requestSwitch: (workspace: Workspace) => void;
  canSwitch: (slug: string) => boolean;
}

const WorkspaceSwitchContext = createContext<WorkspaceSwitchApi | null>(null);

export function useWorkspaceSwitch(): WorkspaceSwitchApi {
  const api = useContext(WorkspaceSwitchContext);
  if (!api) throw new Error('useWorkspaceSwitch outside WorkspaceSwitchProvider');
  return api;
}

/**
 * Binds `workspaceSwitchMachine` (switch call, store the account, reload; an error reloads too)
 * and `confirmDialogMachine` (busy while the switch runs, stays open with an error) for one
 * account. The dialog lives here, not inside the menu, so that closing the menu keeps it open.
 */
export function WorkspaceSwitchProvider({
  accountIndex,
  children,
}: {
  accountIndex: number;
  children: ReactNode;
}) {
  const { t } = useTranslation('shell');
  const session = SessionActorContext.useActorRef();
  const [workspaces, setWorkspaces] = useState<Workspace[] | undefined>();
  const [failed, setFailed] = useState(false);

  const switchRef = useActorRef(
    workspaceSwitchMachine.provide({
      actors: {
        switchWorkspace: fromPromise(({ input, signal }) =>
          switchWorkspace(accountIndex, input.targetWorkspace, signal),
        ),
      },
      actions: {
        storeAccount: (_, { result }) => {
          const { account } = result as Awaited<ReturnType<typeof switchWorkspace>>;
          if (account) session.send({ type: 'account.updated', account });
        },
        logError: (_, { error }) => console.error('workspace switch failed', error),
        reloadPage: () => window.location.reload(),
      },
    }),
    { input: {} },
  );

  const confirmRef = useActorRef(
    confirmDialogMachine.provide({
      actors: {
        runAction: fromPromise(({ input }) => runSwitch(switchRef, input.action ?? '')),
      },
    }),
  );

  useEffect(() => {
    const controller = new AbortController();
    listWorkspaces(accountIndex, controller.signal)
      .then(({ workspaces: list }) => {
        setWorkspaces(list);
        switchRef.send({ type: 'workspaces.loaded', workspaces: list });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('workspace list failed', error);
        setFailed(true);
      });
    return () => controller.abort();
  }, [accountIndex, switchRef]);

  const api = useMemo<WorkspaceSwitchApi>(
    () => ({
      workspaces,
      failed,
      canSwitch: (slug) =>
        switchRef.getSnapshot().can({ type: 'workspace.switch', targetWorkspace: slug }),
      requestSwitch: (workspace) =>
        confirmRef.send({
          type: 'confirm.open',
          title: t('workspace_switch.confirm_title'),
          message: t('workspace_switch.confirm_text', { workspace: workspace.name }),
          action: workspace.slug,
        }),
    }),
    [workspaces, failed, switchRef, confirmRef, t],
  );

  return (
    <WorkspaceSwitchContext.Provider value={api}>
      {children}
      <ConfirmDialog confirmRef={confirmRef} />
    </WorkspaceSwitchContext.Provider>
  );
}

/** Resolves never on success: the page reloads. Rejects when the machine refuses the target. */
function runSwitch(
  switchRef: ActorRefFrom<typeof workspaceSwitchMachine>,
  targetWorkspace: string,
): Promise<never> {
  return new Promise((_, reject) => {
    const event = { type: 'workspace.switch', targetWorkspace } as const;
    if (!switchRef.getSnapshot().can(event)) {
      reject(new Error('workspace not available'));
      return;
    }
    switchRef.send(event);
  });
}

function ConfirmDialog({ confirmRef }: { confirmRef: ActorRefFrom<typeof confirmDialogMachine> }) {
  const { t } = useTranslation(['shell', 'common']);
  const state = useSelector(confirmRef, (s) => s);
  const open = !state.matches('closed');
  const busy = state.matches('busy');
  return (
    <Dialog
      open={open}
      onClose={() => {
        // Closing (Escape, outside click) is refused while busy, as the buttons are.
        if (state.can({ type: 'confirm.close' })) confirmRef.send({ type: 'confirm.close' });
      }}
      className="fixed inset-0 z-50"
    >
      <div className="fixed inset-0 bg-slate-900/40" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel className="w-full max-w-md rounded-lg bg-white p-6 shadow-xl">
          <DialogTitle className="text-lg font-bold text-slate-900">
            {state.context.title}
          </DialogTitle>
          <p className="mt-2 text-slate-700">{state.context.message}</p>
          {state.context.hasError ? (
            <div className="mt-4">
              <Alert tone="danger">
                {state.context.errorMessage ?? t('workspace_switch.failed')}
              </Alert>
            </div>
          ) : null}
          {busy ? (
            <div className="mt-4">
              <Spinner label={t('workspace_switch.switching')} />
            </div>
          ) : null}
          <div className="mt-6 flex justify-end gap-3">
            <Button
              variant="secondary"
              disabled={!state.can({ type: 'confirm.cancel' })}
              onClick={() => confirmRef.send({ type: 'confirm.cancel' })}
            >
              {t('common:actions.cancel')}
            </Button>
            <Button
              data-autofocus
              disabled={!state.can({ type: 'confirm.accept' })}
              onClick={() => confirmRef.send({ type: 'confirm.accept' })}
            >
              {t('workspace_switch.confirm')}
            </Button>
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
