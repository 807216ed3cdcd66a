// The one script every page loads: global CSS, then the islands runtime.
import './styles/index.css';
import { startIslands, type IslandLoaders } from './runtime';

// Lazy: each island is its own chunk, fetched only when a page has that island.
// (Tests beside the islands are not islands.)
const loaders: IslandLoaders = import.meta.glob(['./islands/*.tsx', '!./islands/*.test.tsx']);

if (document.readyState === 'loading') {
  document.addEventListener('DOMContentLoaded', () => startIslands(document, loaders), { once: true });
} else {
  startIslands(document, loaders);
}
