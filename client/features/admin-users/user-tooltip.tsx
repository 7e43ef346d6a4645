import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface TooltipUser {
  email: string;
  firstName: string;
  lastName: string;
  organizationName: string | null;
}

function initials(user: TooltipUser): string {
  const letters = `${user.firstName.charAt(0)}${user.lastName.charAt(0)}`.trim();
  return (letters || user.email.charAt(0)).toUpperCase();
}

/**
 * The spec's user tooltip: avatar (initials), full name, e-mail and organisation, shown on hover
 * and on keyboard focus. Positioned fixed so that the table cell's overflow does not clip it.
 */
export function UserTooltip({ user, children }: { user: TooltipUser; children: ReactNode }) {
  const { t } = useTranslation('admin_users');
  const id = useId();
  const [position, setPosition] = useState<{ top: number; left: number } | null>(null);
  const show = (element: HTMLElement) => {
    const rect = element.getBoundingClientRect();
    setPosition({ top: rect.bottom + 4, left: rect.left });
  };
  const hide = () => setPosition(null);
  return (
    <span
      // Focusable so keyboard users reach the tooltip too (WCAG 1.4.13).
      tabIndex={0}
      aria-describedby={position ? id : undefined}
      className="rounded focus:outline-2 focus:outline-blue-700"
      onMouseEnter={(event) => show(event.currentTarget)}
      onMouseLeave={hide}
      onFocus={(event) => show(event.currentTarget)}
      onBlur={hide}
      onKeyDown={(event) => {
        if (event.key === 'Escape') hide();
      }}
    >
      {children}
      {position ? (
        <span
          id={id}
          role="tooltip"
          style={{ top: position.top, left: position.left }}
          className="fixed z-40 flex w-72 items-center gap-3 rounded-md border border-slate-300 bg-white p-3 text-left whitespace-normal shadow-lg"
        >
          <span
            aria-hidden="true"
            className="flex size-10 shrink-0 items-center justify-center rounded-full bg-slate-700 font-semibold text-white"
          >
            {initials(user)}
          </span>
          <span className="flex min-w-0 flex-col">
            <span className="font-semibold text-slate-900">
              {`${user.firstName} ${user.lastName}`.trim()}
            </span>
            <span className="truncate text-slate-700">{user.email}</span>
            {user.organizationName ? (
              <span className="text-slate-700">
                {t('tooltip.organization', { name: user.organizationName })}
              </span>
            ) : null}
          </span>
        </span>
      ) : null}
    </span>
  );
}
