/**
 * The Python side of the spawn server (see spawn-server.ts), speaking exactly the Perl launcher's
 * protocol (spawn-server-script.ts). Preferred when python3 is present because `os.posix_spawnp`
 * starts a child with vfork semantics: no copy of the launcher's page tables, so a trivial command
 * costs less than a shell loop's fork+exec. SIGCHLD reaches select() through a wakeup pipe, so the
 * loop never polls. Children: own process group, stdin /dev/null, SIGPIPE and SIGCHLD default.
 */
export const PY_SPAWN_SERVER_SCRIPT = String.raw`
import os, select, signal, struct, sys, time
env = {}
for kv in sys.argv[1:]:
    i = kv.find('=')
    if i > 0:
        env[kv[:i]] = kv[i + 1:]
KEEP = 8192
GRACE = 0.5
MARK = b'\0rgate-launcher: '
devnull = os.open('/dev/null', os.O_RDONLY)
kids = {}
byfd = {}
wake_r, wake_w = os.pipe()
os.set_blocking(wake_r, False)
os.set_blocking(wake_w, False)
signal.set_wakeup_fd(wake_w)
signal.signal(signal.SIGCHLD, lambda *a: None)
signal.signal(signal.SIGPIPE, signal.SIG_IGN)

def send(b):
    view = memoryview(b)
    off = 0
    while off < len(b):
        try:
            off += os.write(1, view[off:])
        except InterruptedError:
            continue
        except OSError:
            kill_all()
            os._exit(0)

def killpg(pid):
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass

def kill_all():
    for pid in list(kids):
        killpg(pid)
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    for pid in list(kids):
        try:
            os.waitpid(pid, 0)
        except OSError:
            pass
    kids.clear()

def start_child(cid, cap, argv):
    try:
        orr, ow = os.pipe()
        er, ew = os.pipe()
    except OSError as e:
        send(('F %s pipe: %s\n' % (cid, e.strerror)).encode())
        return
    actions = [(os.POSIX_SPAWN_DUP2, devnull, 0), (os.POSIX_SPAWN_DUP2, ow, 1), (os.POSIX_SPAWN_DUP2, ew, 2)]
    try:
        pid = os.posix_spawnp(argv[0], argv, env, file_actions=actions, setpgroup=0,
                              setsigdef=(signal.SIGPIPE, signal.SIGCHLD))
    except OSError as e:
        for fd in (orr, ow, er, ew):
            os.close(fd)
        err = MARK + b'cannot run ' + argv[0] + b': ' + (e.strerror or str(e)).encode()
        send(('E %s %d 0 0 0 %d\n' % (cid, 127 << 8, len(err))).encode() + err)
        return
    os.close(ow)
    os.close(ew)
    os.set_blocking(orr, False)
    os.set_blocking(er, False)
    kids[pid] = {'id': cid, 'cap': cap, 'out': bytearray(), 'err': bytearray(), 'outlen': 0,
                 'overflow': 0, 'errdrop': 0, 'open': 2, 'status': None, 'exited_at': None}
    byfd[orr] = (pid, 'out')
    byfd[er] = (pid, 'err')

def close_fd(fd):
    pid = byfd.pop(fd)[0]
    os.close(fd)
    kids[pid]['open'] -= 1

def read_fd(fd):
    pid, which = byfd[fd]
    k = kids[pid]
    while True:
        try:
            b = os.read(fd, 65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            b = b''
        if not b:
            close_fd(fd)
            return
        if which == 'out':
            k['outlen'] += len(b)
            if k['outlen'] > k['cap']:
                if not k['overflow']:
                    k['overflow'] = 1
                    killpg(pid)
            else:
                k['out'] += b
        else:
            k['err'] += b
            if len(k['err']) > 2 * KEEP:
                del k['err'][:-KEEP]
                k['errdrop'] = 1

def reap():
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        except InterruptedError:
            continue
        if pid == 0:
            return
        k = kids.get(pid)
        if k is None:
            continue
        k['status'] = status
        k['exited_at'] = time.monotonic()
        killpg(pid)

def finish_ready():
    now = time.monotonic()
    for pid in list(kids):
        k = kids[pid]
        if k['status'] is None:
            continue
        if k['open'] > 0:
            if now < k['exited_at'] + GRACE:
                continue
            for fd in [fd for fd, v in byfd.items() if v[0] == pid]:
                close_fd(fd)
        err = bytes(k['err'])
        if len(err) > KEEP:
            err = err[-KEEP:]
            k['errdrop'] = 1
        del kids[pid]
        head = 'E %s %d %d %d %d %d\n' % (k['id'], k['status'], k['overflow'], k['errdrop'], len(k['out']), len(err))
        send(head.encode() + bytes(k['out']) + err)

def parse_frames(buf):
    while len(buf) >= 4:
        (n,) = struct.unpack('>I', buf[:4])
        if len(buf) < 4 + n:
            break
        parts = bytes(buf[4:4 + n]).split(b'\0')
        del buf[:4 + n]
        cid = parts[0].decode()
        if cid == 'K':
            target = parts[1].decode()
            for pid, k in list(kids.items()):
                if k['id'] == target:
                    killpg(pid)
            continue
        start_child(cid, int(parts[1]), parts[2:])

inbuf = bytearray()
stdin_open = True
send(b'R\n')
while stdin_open:
    timeout = None
    for k in kids.values():
        if k['exited_at'] is not None:
            left = max(0.0, k['exited_at'] + GRACE - time.monotonic())
            timeout = left if timeout is None or left < timeout else timeout
    try:
        ready, _, _ = select.select([0, wake_r] + list(byfd), [], [], timeout)
    except InterruptedError:
        ready = []
    for fd in ready:
        if fd == 0:
            try:
                b = os.read(0, 65536)
            except (BlockingIOError, InterruptedError):
                continue
            if not b:
                stdin_open = False
            else:
                inbuf += b
                parse_frames(inbuf)
        elif fd == wake_r:
            try:
                while os.read(wake_r, 4096):
                    pass
            except (BlockingIOError, InterruptedError):
                pass
        elif fd in byfd:
            read_fd(fd)
    reap()
    finish_ready()
kill_all()
`;
