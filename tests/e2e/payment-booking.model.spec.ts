import type { APIRequestContext, Page } from '@playwright/test';
import type { AnyEventObject, Snapshot } from 'xstate';
import { describePath } from '#machines/testing/model.ts';
import {
  pathEvents,
  pathsInput,
  paymentBookingMachine,
} from '#machines/payment-booking.machine.ts';
import { overdueInvoice, paymentsOf, type TestInvoice } from './billing-setup.ts';
import { apiAs, expect, signIn, test } from './fixtures.ts';
import { expectCheckForEveryState, modelPaths, walkModel } from './model-walk.ts';

/**
 * The payment-booking machine's generated paths, walked on an invoice page against the real BFF
 * and sandbox, each on an overdue invoice of 100 € of its own. A submit books 1 € (so that the
 * invoice stays open and "Book payment" stays offered for the rest of the path), a refusal is
 * 1 000 € (more than is open: 409), and a lost answer is the real thing: the request reaches the
 * service, which books it, and the browser never gets the answer. Its retry must not book twice.
 * Nothing is left out: every event is something a user does or the service answers.
 */
const PAYMENTS_URL = '**/paymentservice/v1/payments';

const { model, paths } = modelPaths(paymentBookingMachine, {
  input: pathsInput,
  events: pathEvents,
});

const dialog = (page: Page) => page.getByRole('dialog', { name: 'Book a payment' });

type Args = [Page, APIRequestContext, TestInvoice];

const stateChecks: Record<string, (...args: [...Args, Snapshot<unknown>]) => Promise<void>> = {
  closed: async (page, api, invoice) => {
    await expect(dialog(page)).toBeHidden();
    // However the path went, a payment is never booked twice.
    const payments = await paymentsOf(api, invoice.code);
    expect(payments.every((p) => p.amount === 100)).toBe(true);
    await expect(page.getByTestId('invoice-payments').getByRole('row')).toHaveCount(
      payments.length === 0 ? 0 : payments.length + 1,
    );
  },
  editing: async (page) => {
    await expect(dialog(page)).toBeVisible();
    await expect(dialog(page).getByRole('button', { name: 'Book payment' })).toBeEnabled();
    await expect(dialog(page).getByRole('textbox', { name: /Amount/ })).toBeEditable();
  },
  submitting: async () => {},
  uncertain: async (page) => {
    await expect(dialog(page).getByText(/could not confirm the booking/)).toBeVisible();
    await expect(dialog(page).getByRole('textbox', { name: /Amount/ })).toBeDisabled();
    await expect(dialog(page).getByRole('button', { name: 'Retry' })).toBeEnabled();
  },
};

test('every state of the payment-booking machine has a check in the browser walk', () => {
  expectCheckForEveryState(paymentBookingMachine, stateChecks);
});

/** What the next answer of the service will be, as the submit prepares it. */
async function prepareAnswer(page: Page, answer: AnyEventObject | undefined): Promise<string> {
  const error = (answer as { error?: { status?: number } } | undefined)?.error;
  if (answer?.type !== 'xstate.error.actor.book') return '1.00';
  if (error?.status === 409) return '1000.00';
  // The answer is lost on the way back: the service books, the browser sees a failed request.
  await page.route(
    PAYMENTS_URL,
    async (route) => {
      if (route.request().method() !== 'POST') return route.fallback();
      await route.fetch();
      await route.abort('connectionreset');
    },
    { times: 1 },
  );
  return '1.00';
}

test.describe('payment-booking paths', () => {
  paths.forEach((path) => {
    test(`path: ${describePath(path)}`, async ({ page, baseURL }) => {
      test.setTimeout(90_000);
      const admin = await apiAs(baseURL!, 'admin@demo.test');
      try {
        const invoice = await overdueInvoice(admin, 10_000);
        await signIn(page, 'care@demo.test');
        await page.goto(`/u/0/finance-management/finance-invoices/${invoice.code}`);
        await expect(page.getByTestId('invoice-open')).toHaveText('€100.00');
        await walkModel(model, path, {
          states: stateChecks,
          args: [page, admin, invoice],
          events: {
            'booking.open': async () => {
              await page.getByRole('button', { name: 'Book payment' }).click();
            },
            'booking.submit': async (step) => {
              const amount = await prepareAnswer(page, step.next());
              await dialog(page)
                .getByRole('textbox', { name: /Amount/ })
                .fill(amount);
              await dialog(page).getByRole('button', { name: 'Book payment' }).click();
            },
            'booking.retry': async () => {
              await dialog(page).getByRole('button', { name: 'Retry' }).click();
            },
            'booking.cancel': async (step) => {
              const uncertain = dialog(page).getByRole('button', {
                name: 'Close and check the invoice',
              });
              if (step.from && (step.from as unknown as { value: unknown }).value === 'uncertain')
                await uncertain.click();
              else await dialog(page).getByRole('button', { name: 'Cancel' }).click();
            },
            'xstate.done.actor.book': async () => {
              await expect(page.getByText('Payment of €1.00 booked.')).toBeVisible();
            },
            'xstate.error.actor.book': async () => {},
          },
        });
      } finally {
        await admin.dispose();
      }
    });
  });
});
