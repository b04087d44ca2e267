/* global localStorage, window, document */
// The stored colour theme, applied before the first paint; src/lib/theme.ts keeps it in step
// afterwards (same key, same media query). A classic script in the head: the CSP allows it.
(function () {
  var choice = null;
  try {
    choice = localStorage.getItem('aerie.theme');
  } catch {
    // Storage refused: the system's theme.
  }
  var light = choice === 'light' || (choice !== 'dark' && window.matchMedia('(prefers-color-scheme: light)').matches);
  document.documentElement.setAttribute('data-theme', light ? 'light' : 'dark');
})();
