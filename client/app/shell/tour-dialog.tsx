import { Dialog, DialogPanel, DialogTitle } from '#client/ui/dialog.tsx';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '#client/ui/button.tsx';

/** The explanatory tour of the help menu: a few steps about the shell. */
export function TourDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation(['shell', 'common']);
  const [step, setStep] = useState(0);
  const steps = [t('tour.step_menu'), t('tour.step_header'), t('tour.step_accounts')];
  const close = () => {
    setStep(0);
    onClose();
  };
  const last = step === steps.length - 1;
  return (
    <Dialog open={open} onClose={close} className="fixed inset-0 z-50">
      <div className="fixed inset-0 bg-slate-900/40" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel className="w-full max-w-md rounded-lg bg-white p-6 shadow-xl">
          <DialogTitle className="text-lg font-bold text-slate-900">{t('tour.title')}</DialogTitle>
          <p className="mt-1 text-sm text-slate-600">
            {t('tour.step', { current: step + 1, total: steps.length })}
          </p>
          <p className="mt-4 text-slate-800">{steps[step]}</p>
          <div className="mt-6 flex justify-between gap-3">
            <Button variant="secondary" onClick={close}>
              {t('common:actions.close')}
            </Button>
            <div className="flex gap-3">
              <Button variant="secondary" disabled={step === 0} onClick={() => setStep(step - 1)}>
                {t('common:actions.previous')}
              </Button>
              <Button data-autofocus onClick={() => (last ? close() : setStep(step + 1))}>
                {last ? t('tour.finish') : t('common:actions.next')}
              </Button>
            </div>
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
