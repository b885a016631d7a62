/**
 * The Perl side of the spawn server (see spawn-server.ts). Perl ships with every Debian/Ubuntu
 * (perl-base is Essential) and macOS, forks cheaply (a few MB, unlike node's ~60 MB), and has
 * select/fork/exec/waitpid in core. No shell is involved: argv goes straight to exec.
 *
 * Protocol. Startup args: `KEY=VALUE`... (the children's whole environment). The launcher first
 * writes `R` (ready). rgate -> launcher:
 * frames `uint32be length` + `id \0 max_stdout_bytes \0 argv0 \0 argv1 ...`, or `K \0 id` to SIGKILL
 * the process group of request `id` (a timeout). launcher -> rgate lines:
 *   `F id message`                    could not start (pipe/fork failed); a failed exec exits 127 with
 *                                     stderr `\0rgate-launcher: cannot run ...`
 *   `E id waitstatus overflow errdropped outlen errlen` + stdout bytes + stderr tail bytes
 * Stdout beyond the cap kills the child's group (overflow=1). When a child exits its group is killed
 * (stray background children must not leak), and pipes still held open 0.5 s later are closed.
 * On stdin EOF every child group is killed and reaped, then the launcher exits.
 */
export const SPAWN_SERVER_SCRIPT = String.raw`
use strict; use warnings;
use POSIX ();
use Fcntl qw(F_GETFL F_SETFL O_NONBLOCK);
use Time::HiRes ();
$SIG{PIPE} = 'IGNORE';
$SIG{CHLD} = sub { };
%ENV = ();
for my $kv (@ARGV) { my $i = index($kv, '='); $ENV{substr($kv, 0, $i)} = substr($kv, $i + 1) if $i > 0; }
binmode STDIN; binmode STDOUT;
my $KEEP = 8192; my $GRACE = 0.5;
my $in = ''; my %kids; my %byfd; my $stdin_open = 1;

sub send_frame {
  my ($s) = @_; my $off = 0;
  while ($off < length $s) {
    my $w = syswrite(STDOUT, $s, length($s) - $off, $off);
    if (!defined $w) { next if $!{EINTR} || $!{EAGAIN}; kill_all(); exit 0; }
    $off += $w;
  }
}

sub kill_all {
  for my $pid (keys %kids) { kill 'KILL', -$pid; kill 'KILL', $pid; }
  for my $pid (keys %kids) { waitpid($pid, 0); }
  %kids = ();
}

sub start_child {
  my ($id, $cap, @argv) = @_;
  my ($or, $ow, $er, $ew);
  unless (pipe($or, $ow) && pipe($er, $ew)) { send_frame("F $id pipe: $!\n"); return; }
  my $pid = fork();
  if (!defined $pid) { send_frame("F $id fork: $!\n"); return; }
  if ($pid == 0) {
    $SIG{PIPE} = 'DEFAULT'; $SIG{CHLD} = 'DEFAULT';
    POSIX::setpgid(0, 0);
    close $or; close $er;
    open(STDIN, '<', '/dev/null');
    POSIX::dup2(fileno($ow), 1); POSIX::dup2(fileno($ew), 2);
    { no warnings; exec { $argv[0] } @argv; }
    # exec failed: say so on stderr behind a NUL marker rgate recognises (no status pipe: no extra
    # syscalls and no waiting for exec on the common path)
    syswrite(STDERR, "\0rgate-launcher: cannot run $argv[0]: $!");
    POSIX::_exit(127);
  }
  close $ow; close $ew;
  POSIX::setpgid($pid, $pid);
  # non-blocking, so one wake-up drains a pipe to EAGAIN or EOF (a fast child costs one select round)
  for my $fh ($or, $er) { my $fl = fcntl($fh, F_GETFL, 0); fcntl($fh, F_SETFL, $fl | O_NONBLOCK); }
  $kids{$pid} = { id => $id, cap => $cap, out => '', err => '', outlen => 0, overflow => 0, errdrop => 0,
                  open => 2, status => undef, exited_at => undef };
  $byfd{fileno $or} = [$pid, 'out', $or];
  $byfd{fileno $er} = [$pid, 'err', $er];
}

sub kill_id {
  my ($target) = @_;
  for my $pid (keys %kids) { kill 'KILL', -$pid if $kids{$pid}{id} eq $target; }
}

sub parse_frames {
  while (length($in) >= 4) {
    my $len = unpack('N', $in);
    last if length($in) < 4 + $len;
    my $payload = substr($in, 4, $len);
    substr($in, 0, 4 + $len) = '';
    my ($id, $cap, @argv) = split /\0/, $payload, -1;
    if ($id eq 'K') { kill_id($cap); next; }
    start_child($id, $cap, @argv);
  }
}

sub read_fd {
  my ($fd) = @_;
  my ($pid, $which, $fh) = @{$byfd{$fd}};
  my $k = $kids{$pid};
  for (;;) {
    my $buf; my $r = sysread($fh, $buf, 65536);
    if (!defined $r) { return if $!{EINTR} || $!{EAGAIN} || $!{EWOULDBLOCK}; $r = 0; }
    if ($r == 0) { close $fh; delete $byfd{$fd}; $k->{open}--; return; }
    if ($which eq 'out') {
      $k->{outlen} += $r;
      if ($k->{outlen} > $k->{cap}) { if (!$k->{overflow}) { $k->{overflow} = 1; kill 'KILL', -$pid; } }
      else { $k->{out} .= $buf; }
    } else {
      $k->{err} .= $buf;
      if (length($k->{err}) > 2 * $KEEP) { $k->{err} = substr($k->{err}, -$KEEP); $k->{errdrop} = 1; }
    }
  }
}

sub reap {
  while ((my $p = waitpid(-1, POSIX::WNOHANG())) > 0) {
    my $k = $kids{$p}; next unless $k;
    $k->{status} = $?; $k->{exited_at} = Time::HiRes::time();
    kill 'KILL', -$p;
  }
}

sub finish_ready {
  my $now = Time::HiRes::time();
  for my $pid (keys %kids) {
    my $k = $kids{$pid};
    next unless defined $k->{status};
    if ($k->{open} > 0) {
      next if $now < $k->{exited_at} + $GRACE;
      for my $fd (keys %byfd) { if ($byfd{$fd}[0] == $pid) { close $byfd{$fd}[2]; delete $byfd{$fd}; } }
      $k->{open} = 0;
    }
    my $err = $k->{err};
    if (length($err) > $KEEP) { $err = substr($err, -$KEEP); $k->{errdrop} = 1; }
    delete $kids{$pid};
    send_frame("E $k->{id} $k->{status} $k->{overflow} $k->{errdrop} " . length($k->{out}) . ' ' . length($err) . "\n" . $k->{out} . $err);
  }
}

send_frame("R\n");
while ($stdin_open) {
  my $rin = '';
  vec($rin, 0, 1) = 1;
  vec($rin, $_, 1) = 1 for keys %byfd;
  # SIGCHLD may land just before select (a race no handler can close), so never block unboundedly
  # while a child is unreaped: poll briefly fast once its pipes are closed, else every 50 ms
  my $timeout;
  for my $k (values %kids) {
    my $left;
    if (defined $k->{exited_at}) { $left = $k->{exited_at} + $GRACE - Time::HiRes::time(); $left = 0 if $left < 0; }
    elsif ($k->{open} > 0) { $left = 0.05; }
    else {
      # pipes closed: exit is imminent, poll fast for 10 ms (a child that closed them and runs on
      # must not make the launcher spin)
      $k->{eof_at} //= Time::HiRes::time();
      $left = Time::HiRes::time() - $k->{eof_at} < 0.01 ? 0.0002 : 0.05;
    }
    $timeout = $left if !defined $timeout || $left < $timeout;
  }
  my $rout;
  my $n = select($rout = $rin, undef, undef, $timeout);
  if (defined $n && $n > 0) {
    if (vec($rout, 0, 1)) {
      my $r = sysread(STDIN, $in, 65536, length $in);
      if (defined $r && $r > 0) { parse_frames(); }
      elsif (!defined $r && ($!{EINTR} || $!{EAGAIN})) { }
      else { $stdin_open = 0; }
    }
    for my $fd (keys %byfd) { read_fd($fd) if $byfd{$fd} && vec($rout, $fd, 1); }
  }
  reap();
  finish_ready();
}
kill_all();
exit 0;
`;
