import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react';
import type { ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { parseHashPairs, withHashPair } from './hash-params.ts';

export interface HashTab {
  /** The value stored in the hash (`#{id}={tab.id}`). */
  id: string;
  label: ReactNode;
  content: ReactNode;
}

/**
 * Tabs whose active tab lives in the URL hash as `{id}={tab}` (spec, section 2), so a reload or
 * a shared link opens the same tab. Several tab groups on one page use different ids. The
 * navigation carries `{ onClickTab: true }` so the app does not scroll to the top (spec).
 */
export function HashTabs({
  id,
  label,
  tabs,
}: {
  id: string;
  /** Accessible name of the tab list. */
  label: string;
  tabs: readonly HashTab[];
}) {
  const location = useLocation();
  const navigate = useNavigate();
  const active = parseHashPairs(location.hash)[id];
  const index = Math.max(
    0,
    tabs.findIndex((tab) => tab.id === active),
  );
  return (
    <TabGroup
      selectedIndex={index}
      onChange={(next) => {
        const tab = tabs[next];
        if (!tab) return;
        void navigate(
          { ...location, hash: withHashPair(location.hash, id, tab.id) },
          { replace: true, state: { onClickTab: true } },
        );
      }}
    >
      <TabList
        aria-label={label}
        className="flex gap-1 overflow-x-auto overflow-y-hidden border-b border-slate-300"
      >
        {tabs.map((tab) => (
          <Tab
            key={tab.id}
            className="-mb-px shrink-0 whitespace-nowrap rounded-t-md border border-transparent px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 data-selected:border-slate-300 data-selected:border-b-white data-selected:bg-white data-selected:text-slate-950"
          >
            {tab.label}
          </Tab>
        ))}
      </TabList>
      <TabPanels className="pt-4">
        {tabs.map((tab) => (
          <TabPanel key={tab.id}>{tab.content}</TabPanel>
        ))}
      </TabPanels>
    </TabGroup>
  );
}
