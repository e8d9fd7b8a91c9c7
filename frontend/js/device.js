// Browser features that are nice to have: keeping the screen on, vibration
// and speech. Each one does nothing where the browser lacks it.

// Keeping the screen on while a game is in play, so that a phone lying on the
// table still lights up, buzzes and shows the banner when its turn comes. The
// Screen Wake Lock does it where the browser has it: in a secure context only
// (https, localhost), so not over the plain http that `make run` serves on a
// party's Wi-Fi, and iOS grants it only within a tap. There, or when it is
// refused, a playing video does it instead (stayOnVideo).

let wanted = false; // a game is in play
let lock = null; // the Screen Wake Lock, while held
let asking = false; // a request for it is under way
let video = null; // the video that keeps the screen on in its stead
let waiting = false; // the video waits for a tap to be let play

async function acquire() {
  if (!wanted || lock || asking || document.visibilityState !== 'visible') return;
  if ('wakeLock' in navigator) {
    let got = null;
    asking = true;
    try {
      got = await navigator.wakeLock.request('screen');
    } catch {
      // Refused (no tap yet on iOS, battery saver): the video below.
    } finally {
      asking = false;
    }
    if (got && !wanted) got.release().catch(() => {}); // the game ended meanwhile
    if (got && wanted) {
      lock = got;
      got.addEventListener('release', () => {
        if (lock === got) lock = null;
      });
      stopVideo();
    }
    if (got || !wanted) return;
  }
  playVideo();
}

document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') acquire();
});

// keepAwake asks the screen to stay on while on is true, and lets it sleep
// again, leaving nothing behind, once it is false.
export function keepAwake(on) {
  wanted = !!on;
  if (wanted) {
    acquire();
    return;
  }
  stopVideo();
  if (lock) {
    lock.release().catch(() => {});
    lock = null;
  }
}

// Apple's WebKit (Safari, and every browser on iOS) keeps the screen on only
// for a video that plays sound: see stayOnVideo.
const APPLE = /^Apple/.test(navigator.vendor || '');

// TAPS are the events within which a browser lets a page start a video (a
// user activation): a tap ends in a touchend and a click, a key is a keydown.
const TAPS = ['touchend', 'click', 'keydown'];

// playVideo plays the video that keeps the screen on, making it first. A
// browser may refuse to play it until the page is tapped (WebKit always does,
// for a video with sound): it then plays on the next tap.
function playVideo() {
  if (waiting) return;
  if (!video) video = stayOnVideo();
  if (!video || !video.paused) return;
  const v = video;
  if (APPLE) unlockAudio(); // its silent track comes from the audio context
  v.play().catch(() => {
    if (v !== video || waiting || !wanted) return;
    waiting = true;
    for (const type of TAPS) document.addEventListener(type, onTap, true);
  });
}

function onTap() {
  stopWaiting();
  acquire(); // within the tap: the Wake Lock once more (iOS), else the video
}

function stopWaiting() {
  waiting = false;
  for (const type of TAPS) document.removeEventListener(type, onTap, true);
}

// stopVideo stops the video and takes it out of the page.
function stopVideo() {
  stopWaiting();
  if (!video) return;
  video.pause();
  for (const track of video.srcObject.getTracks()) track.stop();
  video.srcObject = null;
  video.remove();
  video = null;
}

// stayOnVideo makes the video that keeps the screen on where the Wake Lock
// cannot, or null where the browser cannot make one. It plays a live stream
// drawn from a 1×1 canvas, not a file: the page's Content-Security-Policy
// takes media from the server only (no data: URI), and a stream is made on
// the spot, with no bytes to load or decode and no end, so no loop. Every
// engine keeps the screen on while a video plays, each on its own terms, and
// this one meets them all (as read in their sources):
//   - Chromium (Android; VideoWakeLock): a playing video on a visible page
//     that is mostly in the viewport and covers a fifth of it, the size
//     waived for a live stream — or one that plays sound. Hence the stream,
//     and the pixel in the viewport's corner.
//   - Firefox (HTMLVideoElement::ShouldCreateVideoWakeLock): a playing stream
//     on a visible page, or a video with sound.
//   - WebKit (HTMLMediaElement::shouldDisableSleep): only a video that has an
//     audio track, is not muted and does not loop. There the stream carries a
//     silent track from the page's audio context and plays unmuted, which
//     must start within a tap, as any sound (NoSleep.js's muted, looping
//     video keeps nothing on there). Elsewhere it is muted and soundless, so
//     that it takes nothing from the phone's music.
// It shows nothing: a transparent pixel, fixed (out of the layout), that no
// tap can hit (pointer-events) and that assistive technology skips
// (aria-hidden); it has no controls and no title.
function stayOnVideo() {
  const canvas = document.createElement('canvas');
  if (!canvas.captureStream || !window.MediaStream) return null;
  canvas.width = canvas.height = 1;
  const stream = canvas.captureStream();
  canvas.getContext('2d').fillRect(0, 0, 1, 1); // its one frame, drawn once the stream is there
  if (APPLE) {
    unlockAudio();
    if (audio && audio.createMediaStreamDestination) stream.addTrack(audio.createMediaStreamDestination().stream.getAudioTracks()[0]);
  }
  const v = document.createElement('video');
  v.id = 'keep-awake';
  v.muted = !APPLE;
  v.setAttribute('playsinline', ''); // not full screen on an iPhone
  v.setAttribute('aria-hidden', 'true');
  Object.assign(v.style, {
    position: 'fixed', top: '0', left: '0', width: '1px', height: '1px', opacity: '0', pointerEvents: 'none',
  });
  v.srcObject = stream;
  document.body.appendChild(v);
  return v;
}

// buzz vibrates briefly to say "your turn". Browsers let a page vibrate only
// once its user has tapped it, so it waits for that rather than be refused.
export function buzz() {
  try {
    const active = !navigator.userActivation || navigator.userActivation.hasBeenActive;
    if (navigator.vibrate && active) navigator.vibrate([120, 60, 120]);
  } catch {
    // ignore
  }
}

const WAKE_MS = 4000;
let wakeTimer = null;

// wakeCard shows text as a banner across the top of the phone, over its top
// bar, for a few seconds, or until tapped: the phone's way of tapping its
// holder on the shoulder, which leaves the page's buttons in view and free to
// tap. It lives outside the screen's own elements, so that the screen's
// redraws leave it alone.
export function wakeCard(text) {
  let el = document.getElementById('wake-card');
  if (!el) {
    el = document.createElement('div');
    el.id = 'wake-card';
    el.className = 'wake-card';
    el.setAttribute('role', 'alert');
    el.addEventListener('click', () => { el.hidden = true; });
    document.body.appendChild(el);
  }
  el.textContent = text;
  el.hidden = false;
  clearTimeout(wakeTimer);
  wakeTimer = setTimeout(() => { el.hidden = true; }, WAKE_MS);
}

const VOICE_LANGS = { en: 'en-US', ru: 'ru-RU', uk: 'uk-UA', ro: 'ro-RO' };

export function canSpeak() {
  return 'speechSynthesis' in window;
}

// say reads sentences aloud in lang, one after another.
export function say(lang, sentences) {
  if (!canSpeak() || !sentences.length) return;
  const tag = VOICE_LANGS[lang] || 'en-US';
  const voices = speechSynthesis.getVoices();
  const voice = voices.find((v) => v.lang === tag) || voices.find((v) => v.lang && v.lang.toLowerCase().startsWith(lang));
  for (const s of sentences) {
    const u = new SpeechSynthesisUtterance(s);
    u.lang = tag;
    if (voice) u.voice = voice;
    u.rate = 0.95;
    speechSynthesis.speak(u);
  }
}

// hush stops whatever the narrator is saying and has queued.
export function hush() {
  if (canSpeak()) speechSynthesis.cancel();
}

// The time signals are made on the spot with WebAudio: no sound files. A
// browser lets a page sound only after a tap or a key on it, so the context is
// made, or woken, by unlockAudio on the first one.
let audio = null;

// unlockAudio makes the page's audio context, or resumes it, from a user gesture.
export function unlockAudio() {
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    if (!audio) audio = new Ctx();
    if (audio.state === 'suspended') audio.resume().catch(() => {});
  } catch {
    audio = null;
  }
}

// CUES are the signals: 'soon' two short high beeps (ten seconds left), 'end' one
// longer low tone (time is up).
const CUES = {
  soon: [[880, 0, 0.12], [880, 0.2, 0.12]],
  end: [[440, 0, 0.5]],
};

// cue plays a time signal; it does nothing until the page has been tapped.
export function cue(kind) {
  const notes = CUES[kind];
  if (!audio || !notes || audio.state !== 'running') return;
  const start = audio.currentTime + 0.02;
  for (const [freq, at, len] of notes) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = 'sine';
    osc.frequency.value = freq;
    // A short ramp in and out, so the tone starts and stops without a click.
    gain.gain.setValueAtTime(0.0001, start + at);
    gain.gain.exponentialRampToValueAtTime(0.3, start + at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + at + len);
    osc.connect(gain).connect(audio.destination);
    osc.start(start + at);
    osc.stop(start + at + len + 0.05);
  }
}
