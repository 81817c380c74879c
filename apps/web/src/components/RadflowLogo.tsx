import { PRODUCT_NAME } from '@radflow/core';

/** The Radflow mark: a gantry ring crossed by a flow trace (features/brand BrandLogo shows it or a group's own). */
export function RadflowMark({ size = 28 }: { size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 32 32"
      fill="none"
      role="img"
      aria-label={`${PRODUCT_NAME} logo`}
    >
      <rect x="1" y="1" width="30" height="30" rx="7" fill="#0f2a44" stroke="#38bdf8" strokeWidth="1.5" />
      <circle cx="16" cy="16" r="8.5" stroke="#38bdf8" strokeWidth="2" />
      <path
        d="M4.5 16h6l2-4.5 3.5 9 2.5-6 1.5 1.5h7.5"
        stroke="#5eead4"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
