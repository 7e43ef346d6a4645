/* global document, fetch */
/*
 * The sandbox's chat-assistant widget: what a tenant's chat provider would host. The back office
 * loads it from its own origin (/chat-widget/{version}/widget.js) with a <script> element whose
 * data attributes carry the settings; it draws into the element named by data-target and keeps
 * nothing outside it, so removing that element and the script removes the widget.
 * Styles go through the CSSOM (element.style): the page's CSP forbids inline style attributes.
 */
(function chatWidget() {
  'use strict';
  var script = document.currentScript;
  if (!script) return;
  var target = document.getElementById(script.getAttribute('data-target') || '');
  if (!target) return;
  var webhookUrl = script.getAttribute('data-webhook-url') || '';
  var version = script.getAttribute('data-version') || '';
  var texts = {
    en: {
      open: 'Chat with the assistant',
      close: 'Close the chat',
      title: 'Assistant',
      greeting: 'Hello! How can I help you?',
      label: 'Your message',
      send: 'Send',
      failed: 'The assistant cannot be reached right now.',
    },
    de: {
      open: 'Mit dem Assistenten chatten',
      close: 'Chat schließen',
      title: 'Assistent',
      greeting: 'Hallo! Wie kann ich helfen?',
      label: 'Ihre Nachricht',
      send: 'Senden',
      failed: 'Der Assistent ist gerade nicht erreichbar.',
    },
    pl: {
      open: 'Czat z asystentem',
      close: 'Zamknij czat',
      title: 'Asystent',
      greeting: 'Dzień dobry! W czym mogę pomóc?',
      label: 'Twoja wiadomość',
      send: 'Wyślij',
      failed: 'Asystent jest teraz niedostępny.',
    },
  };
  var text = texts[script.getAttribute('data-language') || 'en'] || texts.en;

  function el(tag, styles, attributes) {
    var node = document.createElement(tag);
    Object.keys(styles || {}).forEach(function (key) {
      node.style[key] = styles[key];
    });
    Object.keys(attributes || {}).forEach(function (key) {
      node.setAttribute(key, attributes[key]);
    });
    return node;
  }

  var root = el(
    'div',
    { position: 'fixed', right: '1rem', bottom: '1rem', zIndex: '40', fontSize: '14px' },
    { 'data-chat-widget-version': version },
  );
  var launcher = el(
    'button',
    {
      background: '#1e293b',
      color: '#ffffff',
      border: 'none',
      borderRadius: '9999px',
      padding: '0.75rem 1rem',
      fontWeight: '600',
      cursor: 'pointer',
    },
    { type: 'button', 'aria-expanded': 'false' },
  );
  launcher.textContent = text.open;

  var panel = el(
    'section',
    {
      display: 'none',
      width: '18rem',
      marginBottom: '0.5rem',
      background: '#ffffff',
      color: '#0f172a',
      border: '1px solid #94a3b8',
      borderRadius: '0.5rem',
      padding: '0.75rem',
    },
    { 'aria-label': text.title, id: 'bo-chat-widget-panel' },
  );
  launcher.setAttribute('aria-controls', 'bo-chat-widget-panel');
  var heading = el('h2', { fontWeight: '700', margin: '0 0 0.5rem' });
  heading.textContent = text.title + (version ? ' ' + version : '');
  var log = el(
    'ul',
    { listStyle: 'none', padding: '0', margin: '0 0 0.5rem' },
    {
      'aria-live': 'polite',
    },
  );
  var form = el('form', { display: 'flex', gap: '0.25rem', alignItems: 'flex-end' });
  var inputId = 'bo-chat-widget-input';
  var label = el('label', { position: 'absolute', left: '-10000px' }, { for: inputId });
  label.textContent = text.label;
  var input = el(
    'input',
    { flex: '1', border: '1px solid #64748b', borderRadius: '0.25rem', padding: '0.25rem' },
    { id: inputId, maxlength: '1000', autocomplete: 'off' },
  );
  var send = el(
    'button',
    { background: '#1e293b', color: '#ffffff', border: 'none', borderRadius: '0.25rem' },
    { type: 'submit' },
  );
  send.textContent = text.send;

  function say(who, message) {
    var item = el('li', { margin: '0.25rem 0', fontWeight: who === 'user' ? '600' : '400' });
    item.textContent = message;
    log.appendChild(item);
  }
  say('assistant', text.greeting);

  launcher.addEventListener('click', function () {
    var open = panel.style.display === 'none';
    panel.style.display = open ? 'block' : 'none';
    launcher.setAttribute('aria-expanded', String(open));
    launcher.textContent = open ? text.close : text.open;
    if (open) input.focus();
  });
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var message = input.value.trim();
    if (!message) return;
    input.value = '';
    say('user', message);
    fetch(webhookUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      credentials: 'omit',
      body: JSON.stringify({ message: message }),
    })
      .then(function (response) {
        if (!response.ok) throw new Error('webhook ' + response.status);
        return response.json();
      })
      .then(function (answer) {
        say('assistant', String(answer && answer.reply ? answer.reply : text.failed));
      })
      .catch(function () {
        say('assistant', text.failed);
      });
  });

  form.appendChild(label);
  form.appendChild(input);
  form.appendChild(send);
  panel.appendChild(heading);
  panel.appendChild(log);
  panel.appendChild(form);
  root.appendChild(panel);
  root.appendChild(launcher);
  target.appendChild(root);
})();
