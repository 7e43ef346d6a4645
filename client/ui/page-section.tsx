import type { ReactNode } from 'react';

/**
 * A titled part of a record's page without tabs (a policy's versions, its timeline, its
 * documents): a region named by its `<h2>`, so that screen readers list it among the landmarks
 * and jump to it. `id` names the heading (`{id}-heading`), unique on the page.
 */
export function PageSection({
  id,
  title,
  children,
}: {
  id: string;
  title: ReactNode;
  children: ReactNode;
}) {
  const headingId = `${id}-heading`;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}
