package lambdamain

import (
	"context"
	"sync"

	"citysleeps/shared/evening"
	"citysleeps/shared/httpapi"
	"citysleeps/shared/protocol"
	"citysleeps/shared/ratings"
	"citysleeps/shared/rules"
	"citysleeps/shared/service"
)

// lazy is the games of a Lambda function: the service, built by build on first
// use, so that the function's init does no work that can wait. A failed build
// is retried by the next request; until one succeeds every call fails with
// service.ErrUnavailable. Nothing of one game is kept between requests: only
// what build returns (the service and its store client).
type lazy struct {
	build func(context.Context) (*service.Service, error)
	mu    sync.Mutex
	svc   *service.Service
}

// The handler answers If-None-Match through Revision, so lazy has it too.
var _ interface {
	httpapi.Games
	Revision(ctx context.Context, code, token string) (service.Revision, error)
} = (*lazy)(nil)

func (l *lazy) get(ctx context.Context) (*service.Service, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.svc != nil {
		return l.svc, nil
	}
	s, err := l.build(ctx)
	if err != nil {
		e := service.Refuse(service.ErrUnavailable, "the game store is unavailable, try again later")
		e.Cause = err
		return nil, e
	}
	l.svc = s
	return s, nil
}

func (l *lazy) Create(ctx context.Context, req service.CreateRequest) (service.Created, error) {
	s, err := l.get(ctx)
	if err != nil {
		return service.Created{}, err
	}
	return s.Create(ctx, req)
}

func (l *lazy) Join(ctx context.Context, code string, req service.JoinRequest) (service.Joined, error) {
	s, err := l.get(ctx)
	if err != nil {
		return service.Joined{}, err
	}
	return s.Join(ctx, code, req)
}

func (l *lazy) ReadTable(ctx context.Context, code, token string) (service.Table, error) {
	s, err := l.get(ctx)
	if err != nil {
		return service.Table{}, err
	}
	return s.ReadTable(ctx, code, token)
}

func (l *lazy) ActTable(ctx context.Context, code, token string, a rules.Action) (service.Table, error) {
	s, err := l.get(ctx)
	if err != nil {
		return service.Table{}, err
	}
	return s.ActTable(ctx, code, token, a)
}

func (l *lazy) Again(ctx context.Context, code, token string) (service.Created, error) {
	s, err := l.get(ctx)
	if err != nil {
		return service.Created{}, err
	}
	return s.Again(ctx, code, token)
}

func (l *lazy) Protocol(ctx context.Context, code, token string) (protocol.Protocol, error) {
	s, err := l.get(ctx)
	if err != nil {
		return protocol.Protocol{}, err
	}
	return s.Protocol(ctx, code, token)
}

func (l *lazy) MafiaRatings(ctx context.Context, code, token string) (ratings.Game, error) {
	s, err := l.get(ctx)
	if err != nil {
		return ratings.Game{}, err
	}
	return s.MafiaRatings(ctx, code, token)
}

func (l *lazy) Revision(ctx context.Context, code, token string) (service.Revision, error) {
	s, err := l.get(ctx)
	if err != nil {
		return service.Revision{}, err
	}
	return s.Revision(ctx, code, token)
}

func (l *lazy) CreateEvening(ctx context.Context, req service.EveningRequest) (service.EveningCreated, error) {
	s, err := l.get(ctx)
	if err != nil {
		return service.EveningCreated{}, err
	}
	return s.CreateEvening(ctx, req)
}

func (l *lazy) JoinEvening(ctx context.Context, code string, req service.EveningJoinRequest) (service.EveningJoined, error) {
	s, err := l.get(ctx)
	if err != nil {
		return service.EveningJoined{}, err
	}
	return s.JoinEvening(ctx, code, req)
}

func (l *lazy) PollEvening(ctx context.Context, code, token string) (service.EveningRead, error) {
	s, err := l.get(ctx)
	if err != nil {
		return service.EveningRead{}, err
	}
	return s.PollEvening(ctx, code, token)
}

func (l *lazy) ActEvening(ctx context.Context, code, token string, a service.EveningAction) (evening.View, error) {
	s, err := l.get(ctx)
	if err != nil {
		return evening.View{}, err
	}
	return s.ActEvening(ctx, code, token, a)
}

func (l *lazy) EveningMafiaRatings(ctx context.Context, code, token string) (service.EveningExport, error) {
	s, err := l.get(ctx)
	if err != nil {
		return service.EveningExport{}, err
	}
	return s.EveningMafiaRatings(ctx, code, token)
}

func (l *lazy) EveningRecord(ctx context.Context, code, token string) (evening.RecordSheet, error) {
	s, err := l.get(ctx)
	if err != nil {
		return evening.RecordSheet{}, err
	}
	return s.EveningRecord(ctx, code, token)
}
