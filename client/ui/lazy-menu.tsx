import { useState, type KeyboardEvent, type ReactNode } from 'react';
import { lazyModule, useLazyModule } from './lazy-module.ts';
import type { MenuParts, MenuTrigger } from './menu-parts.tsx';

/**
 * A Headless UI menu whose code loads when the menu is first used (issue 14: the shell does not
 * carry the menu, floating-ui and focus code). Until then its button is a plain button with the
 * same name and look; pointer-enter or focus starts the load, so a click rarely waits. A click,
 * Enter, Space or ArrowDown on the plain button opens the menu as soon as the code is there,
 * and from then on Headless UI's menu handles everything.
 */

const parts = lazyModule(() => import('./menu-parts.tsx'));
const openKeys = new Set(['Enter', ' ', 'ArrowDown']);

export function LazyMenu({
  trigger,
  children,
}: {
  trigger: MenuTrigger;
  /** The menu's items, built from Headless UI's parts once they are loaded. */
  children: (parts: MenuParts) => ReactNode;
}) {
  const [loaded, load] = useLazyModule(parts);
  const [wanted, setWanted] = useState(false);
  if (wanted && loaded) return <loaded.LoadedMenu trigger={trigger} items={children} />;
  const ask = () => {
    setWanted(true);
    load();
  };
  return (
    <button
      type="button"
      className={trigger.className}
      aria-label={trigger['aria-label']}
      aria-haspopup="menu"
      aria-expanded={false}
      onPointerEnter={load}
      onFocus={load}
      onClick={ask}
      onKeyDown={(event: KeyboardEvent) => {
        if (!openKeys.has(event.key)) return;
        // Keeps Enter and Space from also clicking, so the menu is asked for once.
        event.preventDefault();
        ask();
      }}
    >
      {trigger.children}
    </button>
  );
}
