import type { ButtonHTMLAttributes } from 'react';

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger';

// Disabled looks disabled in every variant: grey, not a paler brand or red (a pale red
// destructive button still reads as "press me"), and no hover change.
const disabledLook =
  'disabled:border-slate-300 disabled:bg-slate-200 disabled:text-slate-600 disabled:hover:bg-slate-200 disabled:hover:brightness-100';

const variants: Record<Variant, string> = {
  // Text on the brand colour is dark or white by contrast (set with the tenant's colour).
  primary: `bg-brand text-on-brand hover:brightness-95 ${disabledLook}`,
  secondary: `border border-slate-300 bg-white text-slate-800 hover:bg-slate-100 ${disabledLook}`,
  ghost: 'text-slate-700 hover:bg-slate-100 disabled:text-slate-500 disabled:hover:bg-transparent',
  danger: `border border-red-700 bg-red-700 text-white hover:bg-red-800 ${disabledLook}`,
};

/** The classes of a button, for a link that looks like one (a download, a navigation). */
export const buttonClass = (variant: Variant = 'primary') =>
  `inline-flex items-center justify-center gap-2 rounded-md px-4 py-2 text-sm font-semibold transition disabled:cursor-not-allowed ${variants[variant]}`;

export function Button({
  variant = 'primary',
  className = '',
  type = 'button',
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant }) {
  return <button type={type} className={`${buttonClass(variant)} ${className}`} {...props} />;
}
