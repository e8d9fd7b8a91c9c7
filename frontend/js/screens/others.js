// The screens a player's phone does not show at a game: the home page, the
// shared screen and the moderator's console, the protocol, and a club's
// evening (its organiser's page, its TV, a phone between rounds, and a
// table's referee page). The app
// imports this module when a page shows one of them (app.js), so a phone that
// joins a game never downloads them; one module rather than one a screen, so
// that the site's bundler (infra/server/site) puts what they share with the
// player's screen in one file beside the app's, not in a file for each pair
// of screens.
export { homeScreen } from './home.js';
export { hostScreen } from './host.js';
export { protocolScreen } from './protocol.js';
export { eveningScreen, eveningPhone, refereeScreen } from './evening.js';
