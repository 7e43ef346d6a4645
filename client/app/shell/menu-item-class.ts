/** Shared look of the header's drop-down entries; `data-focus` is Headless UI's keyboard focus. */
export const menuItemClass =
  'flex w-full items-center gap-2 rounded px-3 py-2 text-left text-sm text-slate-800 data-disabled:cursor-not-allowed data-disabled:text-slate-500 data-focus:bg-slate-100';

export const menuPanelClass =
  'z-50 mt-1 w-64 rounded-md border border-slate-200 bg-white p-1 shadow-lg focus:outline-none';
