import { useState } from 'react';

// An inline SVG data URL: it cannot fail to load, so it is the safe target of the one swap.
export const FALLBACK_LOGO =
  'data:image/svg+xml;utf8,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><rect width="40" height="40" rx="8" fill="#3f4d67"/><path d="M12 28V12h9a6 6 0 0 1 0 12h-5v4z" fill="#1dc4e9"/></svg>',
  );

/** Tenant logo that swaps to the fallback logo once when the image fails (spec, section 8). */
export function TenantLogo({
  src,
  alt,
  className = '',
}: {
  src?: string | null;
  alt: string;
  className?: string;
}) {
  const [current, setCurrent] = useState(src || FALLBACK_LOGO);
  const [swapped, setSwapped] = useState(!src);
  return (
    <img
      src={current}
      alt={alt}
      className={className}
      onError={() => {
        // Swap once only: a broken fallback must not loop.
        if (swapped) return;
        setSwapped(true);
        setCurrent(FALLBACK_LOGO);
      }}
    />
  );
}
