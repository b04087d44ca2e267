// DOM matchers (toBeInTheDocument, toHaveTextContent, toBeDisabled…) for the SPA's component tests.
import '@testing-library/jest-dom/vitest';
