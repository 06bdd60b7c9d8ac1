// Collects the page's errors before anything else runs, so that the
// status line (and the browser tests) can show every one.
window.studioErrors = [];
window.addEventListener('error', (e) => window.studioErrors.push(String(e.message || e)));
window.addEventListener('unhandledrejection', (e) => window.studioErrors.push('unhandled: ' + String(e.reason && e.reason.message || e.reason)));
(() => {
  const original = console.error;
  console.error = (...args) => { window.studioErrors.push(args.map(String).join(' ')); original.apply(console, args); };
})();
