// DOM matchers (toBeInTheDocument, toHaveTextContent, toBeDisabled…) for the SPA's component tests.
import '@testing-library/jest-dom/vitest';
import { configure } from '@testing-library/react';

// A page's first render loads its lazy chunks; on a busy machine (CI beside other work) that takes
// longer than the library's 1 s default, which made first tests fail for no fault of the page.
configure({ asyncUtilTimeout: 5000 });
