// Headless UI's dialog, only ever imported lazily (`./dialog.tsx`), so that it is a chunk of its
// own and not part of the shell or of a screen until a dialog opens.
export { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
